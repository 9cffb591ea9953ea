"""train_torch.py - a small GPT trained on synthetic tokens with AdamW, an
evaluation every --eval-every steps and a checkpoint every --ckpt-every:
the Python door's sample (docs/python.md).

    python samples/train_torch.py --window 30:3      # marked with the wrapper
    python -m capture_window --loop train_torch.py:82:30:3 samples/train_torch.py
                                                     # the same, no edit
    python samples/train_torch.py                    # unmarked

It prints the mean time of a step over the run (CUDA-synchronized).
Under torchrun each rank trains its own copy (no gradient exchange: the
point is one process per rank, each with its window)."""
import argparse
import os
import tempfile
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, mask):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, vocab, d, heads, layers, context):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(context, d)
        self.blocks = nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.head = nn.Linear(d, vocab)
        self.register_buffer("mask", torch.triu(torch.ones(context, context, dtype=torch.bool), 1))

    def forward(self, idx):
        t = idx.shape[1]
        x = self.tok(idx) + self.pos(torch.arange(t, device=idx.device))
        for b in self.blocks:
            x = b(x, self.mask[:t, :t])
        return self.head(x)


def batch(args, device, generator):
    """Synthetic tokens: each sequence counts up from a random start, so
    there is something to learn."""
    start = torch.randint(0, args.vocab, (args.batch, 1), device=device, generator=generator)
    seq = (start + torch.arange(args.context + 1, device=device)) % args.vocab
    return seq[:, :-1], seq[:, 1:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--eval-every", type=int, default=50)
    ap.add_argument("--ckpt-every", type=int, default=100)
    ap.add_argument("--window", help="START:COUNT: mark the loop with capture_window.loop")
    ap.add_argument("--vocab", type=int, default=512)
    ap.add_argument("--context", type=int, default=128)
    ap.add_argument("--batch", type=int, default=16)
    args = ap.parse_args()
    rank = int(os.environ.get("RANK", "0"))
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(rank)
    gen = torch.Generator(device=device).manual_seed(rank)
    model = GPT(args.vocab, 256, 4, 4, args.context).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.1)
    steps = range(args.steps)
    if args.window:
        import capture_window
        steps = capture_window.loop(steps, *map(int, args.window.split(":")))
    ckpt = os.path.join(tempfile.gettempdir(), "train_torch.%d.pt" % rank)
    t0 = time.perf_counter()
    for step in steps:
        x, y = batch(args, device, gen)
        loss = F.cross_entropy(model(x).flatten(0, 1), y.flatten())
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if (step + 1) % args.eval_every == 0:
            model.eval()
            with torch.no_grad():
                x, y = batch(args, device, gen)
                val = F.cross_entropy(model(x).flatten(0, 1), y.flatten()).item()
            model.train()
            print("rank %d step %d: loss %.3f, eval loss %.3f" % (rank, step, loss.item(), val))
        if (step + 1) % args.ckpt_every == 0:
            torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step}, ckpt)
    if device == "cuda":
        torch.cuda.synchronize()
    ms = (time.perf_counter() - t0) * 1e3 / max(args.steps, 1)
    print("rank %d: %d steps, %.3f ms per step" % (rank, args.steps, ms))


if __name__ == "__main__":
    main()
