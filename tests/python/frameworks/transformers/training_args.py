"""Stand-in for transformers.training_args: the arguments the loop reads."""


class TrainingArguments:
    def __init__(self, output_dir=None, max_steps=-1, gradient_accumulation_steps=1,
                 eval_strategy="no", eval_steps=None, **ignored):
        self.output_dir, self.max_steps = output_dir, max_steps
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self.eval_strategy, self.eval_steps = eval_strategy, eval_steps
