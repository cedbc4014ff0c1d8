// Package train trains the span-scoring network (package network) on a
// treebank, as model.md describes:
//
//   - data: the train and dev treebanks (any format treebank.ReadFile
//     reads); training trees get their unary chains merged ("S/VP") and
//     become network.Example targets through tree.Targets; constituents of
//     block degree > 2, which no decoder can build, are skipped and counted;
//   - vocabulary, from the training set only: lower-cased words seen at least
//     twice (plus unknown), every character, the merged labels of the
//     targets and the POS tags;
//   - batches: sentences grouped by length, at most MaxBatchWords words per
//     batch, the batch order shuffled every epoch from the seed;
//   - optimiser: network.Adam with model.md's settings (lr 1e-3, betas
//     0.9/0.9, eps 1e-12, gradient norm clipped at 5, lr x0.75 every 5000
//     updates), dropout as the configuration says;
//   - model selection: after every epoch the dev sentences' words are parsed
//     with the n3 decoder (package parser) and evaluated with disco-dop's
//     proper.prm (chart/eval); the parameters with the best dev F1 are
//     written to the output file;
//   - distillation (Options.Teacher, optional): a trained model or ensemble
//     scores the training sentences once, and every span cell's target
//     becomes (1-w)·gold + w·teacher (network.Soft), so that one model
//     learns from what an ensemble predicts.
//
// # Files
//
// Next to the output OUT, Run writes OUT.log.jsonl (one JSON line per epoch,
// see EpochLog), OUT.plot.svg (train loss and dev F1 per epoch, rewritten
// every epoch) and the checkpoint (OUT.ckpt unless Options.Checkpoint says
// otherwise). Every file is replaced atomically: written to a temporary file
// in the same directory, synced and renamed, so a crash leaves the old file
// or the new one, never half of one.
//
// # Checkpoints and determinism
//
// A checkpoint holds everything the run depends on: the parameters, the
// optimiser state, the position in the run (epoch and batch; the batch order
// and the dropout masks are functions of the seed, the epoch and the update
// number, so no generator state needs saving), the vocabulary, the
// configuration, the best dev scores and parameters, and the log. It is
// written at the end of every epoch, every Options.CheckpointEvery during an
// epoch, and when the context is cancelled (Ctrl-C: the current batch is
// finished first). Run with Resume continues from it; the result is then bit
// for bit the result of an uninterrupted run with the same seed and worker
// count (network.Model.LossGrad sums gradients in worker order).
package train
