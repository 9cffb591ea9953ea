"""train_hf.py - a tiny GPT-2 (built from a GPT2Config, nothing
downloaded) trained by the Hugging Face Trainer on synthetic tokens: 60
optimizer steps, an evaluation every 20 (docs/python.md, "Hugging Face
Trainer").

    python samples/train_hf.py --window 30:3      # CaptureWindowCallback(30, 3)
    python -m capture_window --loop transformers/trainer.py:LINE:30:3 samples/train_hf.py
                                                  # no edit: LINE is the
                                                  # Trainer's optimizer-step loop
    python samples/train_hf.py                    # unmarked

It prints `step N loss X` per optimizer step and `eval N loss X` per
evaluation, X exact (repr): deterministic, so the runs can be compared
line for line. --accum K accumulates K micro-batches per step."""
import argparse
import os
import tempfile

os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")   # deterministic cuBLAS
import torch  # noqa: E402
from transformers import (GPT2Config, GPT2LMHeadModel, PrinterCallback,  # noqa: E402
                          ProgressCallback, Trainer, TrainerCallback, TrainingArguments)


class Tokens(torch.utils.data.Dataset):
    """Synthetic sequences counting up from a random start (mod vocab)."""

    def __init__(self, n, vocab, context, seed):
        g = torch.Generator().manual_seed(seed)
        start = torch.randint(0, vocab, (n, 1), generator=g)
        self.seq = (start + torch.arange(context)) % vocab

    def __len__(self):
        return len(self.seq)

    def __getitem__(self, i):
        return {"input_ids": self.seq[i], "labels": self.seq[i]}


class PrintLoss(TrainerCallback):
    def on_log(self, args, state, control, logs=None, **kwargs):
        if "loss" in logs:
            print("step %d loss %r" % (state.global_step, logs["loss"]), flush=True)
        if "eval_loss" in logs:
            print("eval %d loss %r" % (state.global_step, logs["eval_loss"]), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--window", help="START:COUNT: pass CaptureWindowCallback(START, COUNT)")
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--eval-every", type=int, default=20)
    ap.add_argument("--eval-batches", type=int, default=40,
                    help="batches per evaluation: a real one costs many steps")
    ap.add_argument("--accum", type=int, default=1, help="gradient_accumulation_steps")
    ap.add_argument("--batch", type=int, default=16)
    a = ap.parse_args()
    torch.use_deterministic_algorithms(True, warn_only=True)
    vocab, context = 512, 64
    config = GPT2Config(vocab_size=vocab, n_positions=context, n_embd=128, n_layer=2, n_head=4,
                        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0)
    torch.manual_seed(0)
    model = GPT2LMHeadModel(config)
    model.set_attn_implementation("eager")          # a deterministic backward
    callbacks = [PrintLoss()]
    if a.window:
        from capture_window.integrations import CaptureWindowCallback
        callbacks.append(CaptureWindowCallback(*map(int, a.window.split(":"))))
    args = TrainingArguments(
        output_dir=tempfile.mkdtemp(prefix="train_hf."), max_steps=a.steps,
        per_device_train_batch_size=a.batch, per_device_eval_batch_size=a.batch,
        gradient_accumulation_steps=a.accum, learning_rate=3e-4, weight_decay=0.1,
        eval_strategy="steps", eval_steps=a.eval_every, logging_steps=1, save_strategy="no",
        report_to="none", disable_tqdm=True, seed=0, dataloader_num_workers=0)
    trainer = Trainer(model=model, args=args,
                      train_dataset=Tokens(a.steps * a.accum * a.batch, vocab, context, 1),
                      eval_dataset=Tokens(a.eval_batches * a.batch, vocab, context, 2),
                      callbacks=callbacks)
    trainer.remove_callback(PrinterCallback)       # its logs hold times: not comparable
    trainer.remove_callback(ProgressCallback)
    trainer.train()


if __name__ == "__main__":
    main()
