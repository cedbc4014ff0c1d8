#!/usr/bin/env python3
"""PyTorch baseline of discspan's span-scoring network: training speed on one GPU.

What it measures
----------------
The throughput of one TRAINING STEP of the network of package network
(Corro 2020 as described in network/doc.go), written the way a competent
PyTorch user would write it, so that the project's own Go/CUDA trainer can be
compared with it on the same NVIDIA GPU. A step is: forward pass with dropout,
the loss, backward, global gradient-norm clipping, Adam update and zero_grad.
The rate is reported in tokens/s, where tokens = WORDS of the batch (the BOS
and EOS tokens added to every sentence are not counted), together with
ms/step and the peak GPU memory (torch.cuda.max_memory_allocated). With
--forward-only a second line times the loss alone (eval mode: no dropout, no
graph, no backward), like network's BenchmarkLoss_TinyMixed1500.

Everything is float32. TF32 is OFF by default for cuBLAS matmuls and cuDNN
(convolutions and RNNs), so that the comparison is float32 against float32;
--tf32 allows it. The setting in force is printed. On torch >= 2.9 (which has
torch.backends.*.fp32_precision and raises on a mix of that API and the legacy
one) the script sets fp32_precision = "ieee" / "tf32" for cuda.matmul, cudnn,
cudnn.conv and cudnn.rnn; on older torch, the legacy
torch.backends.cuda.matmul.allow_tf32 and torch.backends.cudnn.allow_tf32.

Measured once (H100 80GB HBM3, torch 2.11.0+cu130, cuDNN 9.19, TF32 off,
1508 words/step, 16 warm-up steps): tiny 31.7 ms/step = 47.5k tokens/s
(28.6 ms with --fused-adam), paper 39.8 ms/step = 37.9k tokens/s, peak 0.66 and
2.8 GB; forward only (5 warm-up steps) tiny 9.5 ms, paper 13.2 ms. Tiny is
barely faster than paper: at this batch size the step is bound by kernel
launches and host work rather than by arithmetic.

How it matches the Go network (network/doc.go, config.go, params.go, adam.go)
-----------------------------------------------------------------------------
A sentence of n words becomes N = n+2 tokens (BOS, words, EOS). Per token:
    chars = [BOW, c_1 .. c_min(len,MaxChars), EOW]     (BOS/EOS: [BOW, BOS, EOW])
    f_t   = [charLSTM.fwd[last]; charLSTM.bwd[first]]  (char BiLSTM over dropout(CharEmb), DropChar)
    u_t   = dropout([WordEmb[w_t]; f_t], DropFeat)
then H1 = BiLSTM1(U); tag logits = Linear(H1[1..n]); H2 = dropout(BiLSTM2(H1),
DropLSTM); for each kind k in (cont, disc, gap) and module m in (span: d =
SpanMLP, O = 1; label: d = LabelMLP, O = Labels), over the word rows W of H2:
    L = dropout(LeakyReLU(W Wl^T + bl, 0.1), DropMLP), R likewise with Wr, br
    S[x,y,o] = [L_x;1]^T B_o [R_y;1]
and k[x,y,a] = S_span[x,y,0] + S_label[x,y,a]. Loss of a sentence: the sum over
word pairs x <= y and the three kinds of the softmax cross-entropy over
[0 (null, fixed logit); k[x,y,0..L-1]] against the gold class (0 null, a+1
label a), plus the tagger's cross-entropy summed over the words; the batch
loss is the MEAN over sentences of these sums. Adam as network.DefaultAdam:
lr 1e-3, betas (0.9, 0.9), eps 1e-12, gradient norm clipped at 5
(clip_grad_norm_ computes the same min(1, 5/(norm+1e-6)) factor); the lr decay
every 5000 updates never triggers in a benchmark and is left out.
Sizes: the presets of network/config.go, Tiny() and Paper(), with their
placeholder vocabulary sizes (7000 words, 100 characters, 40 labels, 12 tags)
and dropouts (char 0.3, feat 0.3, lstm 0.3, mlp 0.33), MaxChars 20.
Reserved ids as network/vocab.go (words: UNK 0, BOS 1, EOS 2; characters:
UNK 0, BOW 1, EOW 2, BOS 3, EOS 4).

Synthetic data, as network/fast_bench_test.go's mixedBatch: sentences of 5..40
words (uniform) until the batch has at least --batch-words words (default 1500),
words drawn from a Zipf law (s = 1.1, v = 2) over 5000 word types, each type
spelt with 2..12 random characters; random tags; random sparse gold labels
(each cell x <= y of each kind gets a random label with probability
--gold-density, default 0.05; the cost of a dense softmax over every cell does
not depend on it). --num-batches (default 8) different batches from a fixed
--seed are cycled. Weights are drawn uniform in [-0.1, 0.1] like mixedBatch.

Timing: --warmup untimed steps (default 16, two passes over the batches: on an
H100 a batch shape seen for the first time pays one-time cuDNN RNN / cuBLAS /
caching-allocator setup, and 5 warm-up steps over 8 batches left tiny at
46 ms/step instead of 32), then --steps timed steps (default 30) between two
torch.cuda.synchronize(). --fresh gives every step a batch never seen before,
as in real training where the shapes keep changing: the difference with the
cycled rate is PyTorch's per-shape setup cost.

What differs from the Go implementation (none of it changes the math)
---------------------------------------------------------------------
  * The LSTMs are nn.LSTM (cuDNN kernels on GPU) over PackedSequences
    (pack_padded_sequence, enforce_sorted=False); nn.LSTM keeps two bias
    vectors b_ih and b_hh where network keeps one folded b (4H more scalars per
    direction: the "go-equivalent" parameter count printed excludes them).
  * The twelve endpoint Linear layers (3 kinds x 2 modules x left/right) are
    one fused nn.Linear whose output is split; the biaffine tensor of a module
    is stored as (d+1, O, d+1) instead of (O, d+1, d+1) so that its first
    product is one GEMM without a transpose; the three kinds are batched
    (bmm over the kind).
  * The MLPs, the tagger and the first biaffine product ([L;1] B) run over the
    words of the batch without padding; the second, pairwise product runs on
    padded (B, nmax, O, nmax) blocks: it computes the cells x > y and the
    padding cells too (masked out of the loss with ignore_index), where the
    Go code computes only x <= y per sentence. The loss is F.cross_entropy
    over (3*B*nmax, 1+Labels, nmax) logits with the null logit 0 prepended.
  * Dropout masks come from PyTorch's generator, not network's PCG streams.
  * Batch preparation (padding, sorting of the character sequences into
    tensors) is done once per batch before timing, like a prefetching
    DataLoader; the host->device copy of the batch (pinned memory,
    non_blocking) IS inside the timed step.
  * torch.optim.Adam (foreach implementation by default; --fused-adam for the
    fused one) updates every parameter, embedding rows without gradient
    included, as network.Adam does.

How to run it (Python 3, torch, numpy; nothing else)
----------------------------------------------------
    python3 bench/torch_train.py --preset all                  # tiny then paper, float32, TF32 off
    python3 bench/torch_train.py --preset all --tf32           # TF32 allowed (matmul and cuDNN)
    python3 bench/torch_train.py --preset tiny --forward-only  # adds the forward-only line
    python3 bench/torch_train.py --preset all --fresh           # every batch shape new (real training)
    python3 bench/torch_train.py --preset paper --batch-words 500 --steps 50
    python3 bench/torch_train.py --device cpu --preset tiny --steps 2 --warmup 1   # smoke check
Each run prints one human line and one JSON line starting with '{', e.g.
    {"preset": "tiny", "mode": "train", "batch_words": 1500, "tokens_per_s": ...,
     "ms_per_step": ..., "peak_mb": ..., "tf32": false, "device": "NVIDIA H100 ..."}
The CPU reference of the Go side is
    go test ./network -run '^$' -bench 'TrainStep_TinyMixed1500|Loss_TinyMixed1500'
"""

import argparse
import json
import math
import platform
import sys
import time
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

# Reserved ids (network/vocab.go).
UNK_WORD, BOS_WORD, EOS_WORD, NUM_RESERVED_WORDS = 0, 1, 2, 3
UNK_CHAR, BOW_CHAR, EOW_CHAR, BOS_CHAR, EOS_CHAR, NUM_RESERVED_CHARS = 0, 1, 2, 3, 4, 5

IGNORE = -100  # ignore_index of F.cross_entropy: cells x > y and padding
NUM_KINDS = 3  # cont, disc, gap


@dataclass
class Config:
    word_dim: int
    char_dim: int
    char_hidden: int
    max_chars: int
    lstm1_hidden: int
    lstm2_hidden: int
    label_mlp: int
    span_mlp: int
    labels: int = 40
    tags: int = 12
    word_vocab: int = 7000
    char_vocab: int = 100
    drop_char: float = 0.3
    drop_feat: float = 0.3
    drop_lstm: float = 0.3
    drop_mlp: float = 0.33
    leaky_slope: float = 0.1


# network/config.go: Tiny() and Paper() with the placeholder vocabulary sizes.
PRESETS = {
    "tiny": Config(word_dim=96, char_dim=32, char_hidden=64, max_chars=20,
                   lstm1_hidden=192, lstm2_hidden=192, label_mlp=96, span_mlp=128),
    "paper": Config(word_dim=300, char_dim=64, char_hidden=100, max_chars=20,
                    lstm1_hidden=800, lstm2_hidden=800, label_mlp=500, span_mlp=100),
}

# Adam as network.DefaultAdam.
ADAM_LR, ADAM_BETAS, ADAM_EPS, CLIP_NORM = 1e-3, (0.9, 0.9), 1e-12, 5.0


# ---------------------------------------------------------------------------
# Synthetic data (network/fast_bench_test.go's mixedBatch)
# ---------------------------------------------------------------------------

class Batch:
    """One batch as tensors. Host tensors are built once (pinned on CUDA);
    to(device) copies the ones the GPU reads. Lengths stay on the CPU, where
    pack_padded_sequence wants them."""

    DEVICE_FIELDS = ("char_ids", "tok_index", "word_ids", "word_pos", "word_pad_pos", "tags", "gold")

    def __init__(self, **kw):
        self.__dict__.update(kw)

    def pin(self):
        for f in self.DEVICE_FIELDS:
            setattr(self, f, getattr(self, f).pin_memory())
        return self

    def to(self, device):
        if device.type == "cpu":
            return self
        out = Batch(**self.__dict__)
        for f in self.DEVICE_FIELDS:
            setattr(out, f, getattr(self, f).to(device, non_blocking=True))
        return out


def make_sentences(rng, cfg, batch_words, spell, zipf_p, gold_density):
    """Sentences of 5..40 words until the batch has batch_words words."""
    sents, total = [], 0
    types = len(spell)
    while total < batch_words:
        n = 5 + int(rng.integers(36))
        t = rng.choice(types, size=n, p=zipf_p)
        words = NUM_RESERVED_WORDS + t % (cfg.word_vocab - NUM_RESERVED_WORDS)
        chars = [spell[i] for i in t]
        tags = rng.integers(cfg.tags, size=n)
        gold = np.where(rng.random((NUM_KINDS, n, n)) < gold_density,
                        1 + rng.integers(cfg.labels, size=(NUM_KINDS, n, n)), 0)
        gold[:, np.tril_indices(n, -1)[0], np.tril_indices(n, -1)[1]] = IGNORE  # x > y
        sents.append((words, chars, tags, gold))
        total += n
    return sents


def tensorize(cfg, sents):
    B = len(sents)
    lens = np.array([len(s[0]) for s in sents])
    nmax = int(lens.max())
    Nmax = nmax + 2
    # Character sequences of every token, in flat token order (sentence by
    # sentence: BOS, words, EOS).
    seqs = []
    for words, chars, _, _ in sents:
        seqs.append([BOW_CHAR, BOS_CHAR, EOW_CHAR])
        for c in chars:
            seqs.append([BOW_CHAR] + [int(x) for x in c[:cfg.max_chars]] + [EOW_CHAR])
        seqs.append([BOW_CHAR, EOS_CHAR, EOW_CHAR])
    T = len(seqs)
    cmax = max(len(s) for s in seqs)
    char_ids = np.zeros((T, cmax), dtype=np.int64)
    char_lens = np.zeros(T, dtype=np.int64)
    for i, s in enumerate(seqs):
        char_ids[i, :len(s)] = s
        char_lens[i] = len(s)
    tok_index = np.full((B, Nmax), T, dtype=np.int64)  # T: the zero row (padding)
    word_ids = np.zeros((B, Nmax), dtype=np.int64)
    word_pos, word_pad_pos, tags = [], [], []
    gold = np.full((NUM_KINDS, B, nmax, nmax), IGNORE, dtype=np.int64)
    off = 0
    for b, (words, _, tg, gd) in enumerate(sents):
        n = len(words)
        tok_index[b, :n + 2] = np.arange(off, off + n + 2)
        off += n + 2
        word_ids[b, 0], word_ids[b, n + 1] = BOS_WORD, EOS_WORD
        word_ids[b, 1:n + 1] = words
        word_pos.append(b * Nmax + 1 + np.arange(n))   # row of word i in (B*Nmax)
        word_pad_pos.append(b * nmax + np.arange(n))   # row of word i in (B*nmax)
        tags.append(tg)
        gold[:, b, :n, :n] = gd
    t = lambda a: torch.from_numpy(np.ascontiguousarray(a))
    return Batch(
        B=B, nmax=nmax, Nmax=Nmax, words=int(lens.sum()),
        char_ids=t(char_ids), char_lens=t(char_lens),
        tok_index=t(tok_index), word_ids=t(word_ids),
        sent_lens=t((lens + 2).astype(np.int64)),
        word_pos=t(np.concatenate(word_pos)), word_pad_pos=t(np.concatenate(word_pad_pos)),
        tags=t(np.concatenate(tags).astype(np.int64)), gold=t(gold),
    )


def make_batches(cfg, batch_words, num_batches, seed, gold_density, pin):
    rng = np.random.default_rng(seed)
    types = 5000
    spell = [rng.integers(NUM_RESERVED_CHARS, cfg.char_vocab, size=2 + int(rng.integers(11)))
             for _ in range(types)]
    zipf_p = (2.0 + np.arange(types)) ** -1.1  # Go's rand.NewZipf(s=1.1, v=2)
    zipf_p /= zipf_p.sum()
    out = []
    for _ in range(num_batches):
        b = tensorize(cfg, make_sentences(rng, cfg, batch_words, spell, zipf_p, gold_density))
        out.append(b.pin() if pin else b)
    return out


# ---------------------------------------------------------------------------
# Model
# ---------------------------------------------------------------------------

class SpanNet(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        c = cfg
        self.word_emb = nn.Embedding(c.word_vocab, c.word_dim)
        self.char_emb = nn.Embedding(c.char_vocab, c.char_dim)
        self.char_lstm = nn.LSTM(c.char_dim, c.char_hidden, batch_first=True, bidirectional=True)
        self.lstm1 = nn.LSTM(c.word_dim + 2 * c.char_hidden, c.lstm1_hidden,
                             batch_first=True, bidirectional=True)
        self.lstm2 = nn.LSTM(2 * c.lstm1_hidden, c.lstm2_hidden, batch_first=True, bidirectional=True)
        self.tagger = nn.Linear(2 * c.lstm1_hidden, c.tags)
        ds, dl, K = c.span_mlp, c.label_mlp, NUM_KINDS
        # Output columns: [span left (K*ds) | span right (K*ds) | label left (K*dl) | label right (K*dl)],
        # kind-major inside each block.
        self.mlp = nn.Linear(2 * c.lstm2_hidden, 2 * K * ds + 2 * K * dl)
        # B_o[i, j] of kind k = bi[k, i, o, j].
        self.span_bi = nn.Parameter(torch.empty(K, ds + 1, 1, ds + 1))
        self.label_bi = nn.Parameter(torch.empty(K, dl + 1, c.labels, dl + 1))
        with torch.no_grad():
            for p in self.parameters():
                p.uniform_(-0.1, 0.1)  # as mixedBatch

    def go_equivalent_params(self):
        """Scalars of network's layout: nn.LSTM's extra b_hh vectors excluded."""
        extra = sum(p.numel() for n, p in self.named_parameters() if "bias_hh" in n)
        return sum(p.numel() for p in self.parameters()) - extra

    @staticmethod
    def biaffine(l, r, W, b):
        """l, r: (K, Wt, d) word rows; W: (K, d+1, O, d+1).
        Returns S (K, B, nmax, O, nmax), S[k,b,x,o,y] = [l_x;1]^T B_o [r_y;1]."""
        K, Wt, d = l.shape
        O = W.shape[2]
        ones = l.new_ones(K, Wt, 1)
        l1 = torch.cat([l, ones], 2)
        r1 = torch.cat([r, ones], 2)
        # First product over the words (no padding): (K, Wt, O*(d+1)).
        lw = torch.bmm(l1, W.reshape(K, d + 1, O * (d + 1)))
        # Pairwise product per sentence, padded to nmax.
        P = b.B * b.nmax
        lw_p = lw.new_zeros(K, P, O * (d + 1)).index_copy(1, b.word_pad_pos, lw)
        r_p = r1.new_zeros(K, P, d + 1).index_copy(1, b.word_pad_pos, r1)
        s = torch.bmm(lw_p.view(K * b.B, b.nmax * O, d + 1),
                      r_p.view(K * b.B, b.nmax, d + 1).transpose(1, 2))
        return s.view(K, b.B, b.nmax, O, b.nmax)

    def forward(self, b):
        """Batch loss: mean over sentences of the per-sentence summed CEs."""
        c, tr, K = self.cfg, self.training, NUM_KINDS
        # Character BiLSTM over every token of the batch.
        x = F.dropout(self.char_emb(b.char_ids), c.drop_char, tr)
        packed = pack_padded_sequence(x, b.char_lens, batch_first=True, enforce_sorted=False)
        _, (h_n, _) = self.char_lstm(packed)  # h_n: (2, T, Hc), fwd after the last char, bwd after the first
        cf = torch.cat([h_n[0], h_n[1]], 1)
        cf = F.pad(cf, (0, 0, 0, 1))[b.tok_index]  # (B, Nmax, 2Hc), padding slots zero
        u = F.dropout(torch.cat([self.word_emb(b.word_ids), cf], 2), c.drop_feat, tr)
        # Sentence BiLSTMs; BiLSTM2 reads BiLSTM1's packed output directly.
        p1, _ = self.lstm1(pack_padded_sequence(u, b.sent_lens, batch_first=True, enforce_sorted=False))
        h1, _ = pad_packed_sequence(p1, batch_first=True, total_length=b.Nmax)
        p2, _ = self.lstm2(p1)
        h2, _ = pad_packed_sequence(p2, batch_first=True, total_length=b.Nmax)
        # Tagger on the words' BiLSTM1 states.
        h1w = h1.reshape(b.B * b.Nmax, -1).index_select(0, b.word_pos)
        tag_loss = F.cross_entropy(self.tagger(h1w), b.tags, reduction="sum")
        # Endpoint MLPs over the words (BOS/EOS and padding excluded).
        w = F.dropout(h2.reshape(b.B * b.Nmax, -1).index_select(0, b.word_pos), c.drop_lstm, tr)
        z = F.dropout(F.leaky_relu(self.mlp(w), c.leaky_slope), c.drop_mlp, tr)  # (Wt, 2K(ds+dl))
        Wt, ds, dl = w.shape[0], c.span_mlp, c.label_mlp
        sl, sr, ll, lr = torch.split(z, [K * ds, K * ds, K * dl, K * dl], 1)
        kinds = lambda t, d: t.reshape(Wt, K, d).transpose(0, 1)  # (K, Wt, d)
        span = self.biaffine(kinds(sl, ds), kinds(sr, ds), self.span_bi, b)      # (K,B,n,1,n)
        label = self.biaffine(kinds(ll, dl), kinds(lr, dl), self.label_bi, b)    # (K,B,n,L,n)
        scores = span + label
        null = scores.new_zeros(K, b.B, b.nmax, 1, b.nmax)
        logits = torch.cat([null, scores], 3).view(K * b.B * b.nmax, 1 + c.labels, b.nmax)
        span_loss = F.cross_entropy(logits, b.gold.view(K * b.B * b.nmax, b.nmax),
                                    ignore_index=IGNORE, reduction="sum")
        return (span_loss + tag_loss) / b.B


# ---------------------------------------------------------------------------
# Precision settings
# ---------------------------------------------------------------------------

def set_tf32(allow):
    """Allows or forbids TF32 in cuBLAS matmuls and cuDNN (RNNs included).
    Torch >= 2.9 has the fp32_precision API and refuses a mix of it and the
    legacy allow_tf32 flags; older ones only have the flags. Returns a
    description of the setting read back."""
    matmul = torch.backends.cuda.matmul
    cudnn = torch.backends.cudnn
    if hasattr(matmul, "fp32_precision") and hasattr(cudnn, "rnn"):
        mode = "tf32" if allow else "ieee"
        matmul.fp32_precision = mode
        cudnn.fp32_precision = mode
        cudnn.conv.fp32_precision = mode
        cudnn.rnn.fp32_precision = mode
        return ("fp32_precision: matmul=%s cudnn=%s cudnn.conv=%s cudnn.rnn=%s"
                % (matmul.fp32_precision, cudnn.fp32_precision,
                   cudnn.conv.fp32_precision, cudnn.rnn.fp32_precision))
    matmul.allow_tf32 = allow
    cudnn.allow_tf32 = allow
    return "allow_tf32: matmul=%s cudnn=%s" % (matmul.allow_tf32, cudnn.allow_tf32)


# ---------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------

def sync(device):
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def device_name(device):
    if device.type == "cuda":
        return torch.cuda.get_device_name(device)
    return "cpu (%s, %d threads)" % (platform.processor() or platform.machine(), torch.get_num_threads())


def run_preset(name, args, device, tf32_desc):
    cfg = PRESETS[name]
    torch.manual_seed(args.seed)
    model = SpanNet(cfg).to(device)
    params = [p for p in model.parameters()]
    adam_kw = dict(lr=ADAM_LR, betas=ADAM_BETAS, eps=ADAM_EPS)
    if args.fused_adam:
        adam_kw["fused"] = True
    opt = torch.optim.Adam(params, **adam_kw)
    nb = args.warmup + args.steps if args.fresh else args.num_batches
    batches = make_batches(cfg, args.batch_words, max(nb, 1), args.seed, args.gold_density,
                           pin=(device.type == "cuda"))
    words = [b.words for b in batches]
    nparams = sum(p.numel() for p in params)
    print("# %s: %d parameters (%d in network's layout, no b_hh); %d %sbatches of %.0f words on average "
          "(%.1f sentences)" % (name, nparams, model.go_equivalent_params(), len(batches),
                                "fresh " if args.fresh else "cycled ", np.mean(words),
                                np.mean([b.B for b in batches])), flush=True)

    def train_step(b):
        loss = model(b.to(device))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, CLIP_NORM)
        opt.step()
        opt.zero_grad(set_to_none=True)
        return loss

    def forward_step(b):
        with torch.no_grad():
            return model(b.to(device))

    results = []
    modes = [("train", train_step, True)]
    if args.forward_only:
        modes.append(("forward", forward_step, False))
    for mode, step, training in modes:
        model.train(training)
        if device.type == "cuda":
            torch.cuda.empty_cache()
            torch.cuda.reset_peak_memory_stats(device)
        i = 0
        for _ in range(args.warmup):
            step(batches[i % len(batches)])
            i += 1
        sync(device)
        timed_words = 0
        losses = []
        t0 = time.perf_counter()
        for _ in range(args.steps):
            b = batches[i % len(batches)]
            losses.append(step(b).detach())
            timed_words += b.words
            i += 1
        sync(device)
        elapsed = time.perf_counter() - t0
        last_loss = float(losses[-1]) if losses else float("nan")
        first_loss = float(losses[0]) if losses else float("nan")
        peak_mb = torch.cuda.max_memory_allocated(device) / 2 ** 20 if device.type == "cuda" else None
        tps = timed_words / elapsed if elapsed > 0 else float("nan")
        ms = 1000 * elapsed / max(args.steps, 1)
        print("%-5s %-7s %7.0f tokens/s  %8.2f ms/step  peak %s  loss %.2f -> %.2f  (%d steps after %d warm-up, "
              "%.0f words/step, tf32 %s, %s)"
              % (name, mode, tps, ms, "%.0f MiB" % peak_mb if peak_mb is not None else "n/a",
                 first_loss, last_loss, args.steps, args.warmup, timed_words / max(args.steps, 1),
                 "on" if args.tf32 else "off", device_name(device)), flush=True)
        if not math.isfinite(last_loss):
            print("# warning: the loss is not finite", file=sys.stderr)
        rec = {
            "preset": name, "mode": mode, "batch_words": args.batch_words,
            "words_per_step": timed_words / max(args.steps, 1),
            "tokens_per_s": round(tps, 1), "ms_per_step": round(ms, 3),
            "peak_mb": round(peak_mb, 1) if peak_mb is not None else None,
            "tf32": bool(args.tf32), "device": device_name(device),
            "steps": args.steps, "warmup": args.warmup, "params": nparams,
            "loss": last_loss, "torch": torch.__version__,
            "fused_adam": bool(args.fused_adam), "fresh": bool(args.fresh), "tf32_setting": tf32_desc,
        }
        print(json.dumps(rec), flush=True)
        results.append(rec)
    del model, opt, params, batches
    if device.type == "cuda":
        torch.cuda.empty_cache()
    return results


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--preset", choices=["tiny", "paper", "all"], default="tiny")
    ap.add_argument("--batch-words", type=int, default=1500, help="words per batch (at least; default 1500)")
    ap.add_argument("--steps", type=int, default=30, help="timed steps (default 30)")
    ap.add_argument("--warmup", type=int, default=16,
                    help="untimed steps first (default 16: two passes over the 8 batches; a batch shape "
                         "seen for the first time pays one-time cuDNN/cuBLAS/allocator setup)")
    ap.add_argument("--num-batches", type=int, default=8, help="different batches, cycled (default 8)")
    ap.add_argument("--fresh", action="store_true",
                    help="every step (warm-up and timed) gets a batch never seen before, as in real "
                         "training where shapes keep changing (--num-batches is ignored)")
    ap.add_argument("--gold-density", type=float, default=0.05,
                    help="probability that a cell x<=y has a gold label (default 0.05)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--device", default=None, help="cuda or cpu (default: cuda when available)")
    ap.add_argument("--tf32", action="store_true", help="allow TF32 in matmuls and cuDNN (default: off)")
    ap.add_argument("--forward-only", action="store_true",
                    help="also time the loss alone (eval mode, no_grad): an extra line")
    ap.add_argument("--fused-adam", action="store_true", help="torch.optim.Adam(fused=True) (CUDA)")
    ap.add_argument("--threads", type=int, default=0, help="CPU threads for --device cpu (0: torch's default)")
    args = ap.parse_args(argv)

    device = torch.device(args.device or ("cuda" if torch.cuda.is_available() else "cpu"))
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    tf32_desc = "n/a (cpu)"
    if device.type == "cuda":
        tf32_desc = set_tf32(args.tf32)
    print("# torch %s, cuDNN %s, python %s, device %s; float32, TF32 %s (%s)"
          % (torch.__version__, torch.backends.cudnn.version() if device.type == "cuda" else "n/a",
             platform.python_version(), device_name(device), "ALLOWED" if args.tf32 else "off", tf32_desc),
          flush=True)
    names = ["tiny", "paper"] if args.preset == "all" else [args.preset]
    for name in names:
        run_preset(name, args, device, tf32_desc)


if __name__ == "__main__":
    main()
