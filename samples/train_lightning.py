"""train_lightning.py - a tiny GPT-2 (built from a GPT2Config, nothing
downloaded) trained by Lightning on synthetic tokens: 60 optimizer steps,
a validation every 20 (docs/python.md, "Lightning").

    python samples/train_lightning.py --window 30:3   # CaptureWindow(30, 3)
    python -m capture_window --loop _TrainingEpochLoop.run:30:3 samples/train_lightning.py
                                                      # no edit
    python samples/train_lightning.py                 # unmarked

It prints `step N loss X` per optimizer step and `eval N loss X` per
validation, X exact (repr): deterministic, so the runs can be compared
line for line. --accum K sets accumulate_grad_batches=K."""
import argparse
import os

os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")   # deterministic cuBLAS
import lightning.pytorch as pl  # noqa: E402
import torch  # noqa: E402
from transformers import GPT2Config, GPT2LMHeadModel  # noqa: E402


def tokens(n, vocab, context, seed):
    """Synthetic sequences counting up from a random start (mod vocab)."""
    g = torch.Generator().manual_seed(seed)
    start = torch.randint(0, vocab, (n, 1), generator=g)
    return (start + torch.arange(context)) % vocab


class GPT(pl.LightningModule):
    def __init__(self, config, accum):
        super().__init__()
        self.model = GPT2LMHeadModel(config)
        self.model.set_attn_implementation("eager")     # a deterministic backward
        self.accum, self.losses, self.eval_losses = accum, [], []

    def training_step(self, seq, batch_idx):
        loss = self.model(input_ids=seq, labels=seq).loss
        self.losses.append(loss.detach())
        return loss

    def on_train_batch_end(self, outputs, batch, batch_idx):
        if len(self.losses) == self.accum:
            loss = torch.stack(self.losses).mean().item()   # the step's, as Hugging Face logs it
            print("step %d loss %r" % (self.trainer.global_step, loss), flush=True)
            self.losses = []

    def validation_step(self, seq, batch_idx):
        self.eval_losses.append(self.model(input_ids=seq, labels=seq).loss)

    def on_validation_epoch_end(self):
        loss = torch.stack(self.eval_losses).mean().item()
        print("eval %d loss %r" % (self.trainer.global_step, loss), flush=True)
        self.eval_losses = []

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=3e-4, weight_decay=0.1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--window", help="START:COUNT: pass CaptureWindow(START, COUNT)")
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--eval-every", type=int, default=20)
    ap.add_argument("--eval-batches", type=int, default=40,
                    help="batches per evaluation: a real one costs many steps")
    ap.add_argument("--accum", type=int, default=1, help="accumulate_grad_batches")
    ap.add_argument("--batch", type=int, default=16)
    a = ap.parse_args()
    pl.seed_everything(0)
    vocab, context = 512, 64
    config = GPT2Config(vocab_size=vocab, n_positions=context, n_embd=128, n_layer=2, n_head=4,
                        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0)
    model = GPT(config, a.accum)
    callbacks = []
    if a.window:
        from capture_window.integrations import CaptureWindow
        callbacks.append(CaptureWindow(*map(int, a.window.split(":"))))
    loader = torch.utils.data.DataLoader
    train = loader(tokens(a.steps * a.accum * a.batch, vocab, context, 1), batch_size=a.batch,
                   shuffle=True, generator=torch.Generator().manual_seed(0))
    val = loader(tokens(a.eval_batches * a.batch, vocab, context, 2), batch_size=a.batch)
    trainer = pl.Trainer(max_steps=a.steps, accumulate_grad_batches=a.accum,
                         val_check_interval=a.eval_every * a.accum, num_sanity_val_steps=0,
                         deterministic="warn", callbacks=callbacks, logger=False,
                         enable_checkpointing=False, enable_progress_bar=False,
                         enable_model_summary=False, devices=1)
    trainer.fit(model, train, val)


if __name__ == "__main__":
    main()
