package server

import (
	"fmt"
	"maps"
	"runtime"
	"slices"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/train"
)

// DefaultTrainMemory is the memory a training job may take (Options.
// TrainMemory): an upload whose training would take more is refused.
const DefaultTrainMemory = 4 << 30

// trainShape is what a job's memory depends on besides its upload and
// preset: the words of a batch and the workers. The server's jobs have
// train's defaults (Options.TrainDefaults, which tests use to make jobs
// tiny and to hold them up, is not consulted: the estimate is of the
// preset's network).
type trainShape struct {
	batchWords int
	workers    int
}

// defaultShape is the shape of a job with train's defaults on this
// machine.
func defaultShape() trainShape {
	return trainShape{batchWords: train.DefaultMaxBatchWords, workers: runtime.GOMAXPROCS(0)}
}

// trainingBytes estimates the memory that training cfg on an upload
// takes, counts giving its training sentences' lengths (how many of each
// length; lengths up to maxLen only, 0 for all). It is an upper bound as
// far as the network's measured bounds go:
//   - a step's work memory: the batches are those of train's makeBatches
//     (the sentences sorted by length, cut where the next would pass
//     batchWords words; a longer sentence is a batch of its own), each
//     sentence at most network.TrainingBytes;
//   - the work memory the network keeps between steps (at most 1 GiB, and
//     no more than a step takes);
//   - the parameters: the weights, their gradient, the optimiser's two
//     moments, the copy prepared for the step (about twice the weights)
//     and a gradient buffer for every other worker.
func trainingBytes(cfg network.Config, counts map[int]int, maxLen, batchWords, workers int) int64 {
	var step, batch int64
	words := 0
	for _, n := range slices.Sorted(maps.Keys(counts)) {
		if n <= 0 || maxLen > 0 && n > maxLen {
			continue
		}
		tb := cfg.TrainingBytes(n)
		for range counts[n] {
			if words > 0 && words+n > batchWords {
				step, batch, words = max(step, batch), 0, 0
			}
			batch, words = batch+tb, words+n
		}
	}
	step = max(step, batch)
	params := 4 * int64(cfg.NumParams()) * int64(6+workers-1)
	return step + min(step, 1<<30) + params
}

// checkMemory refuses (with an *uploadError) an upload whose training
// would take more than budget bytes, saying how long the sentences may be
// for it to fit.
func (c converted) checkMemory(cfg network.Config, s trainShape, budget int64) error {
	need := trainingBytes(cfg, c.Lengths, 0, s.batchWords, s.workers)
	if need <= budget {
		return nil
	}
	lengths := slices.Sorted(maps.Keys(c.Lengths))
	longest, shortest := 0, 0
	if len(lengths) > 0 {
		shortest, longest = lengths[0], lengths[len(lengths)-1]
	}
	// What would fit: the upload without its longest sentences.
	fits := ""
	for k := len(lengths) - 2; k >= 0 && fits == ""; k-- {
		if trainingBytes(cfg, c.Lengths, lengths[k], s.batchWords, s.workers) <= budget {
			fits = fmt.Sprintf("; without its sentences of more than %d words it would fit", lengths[k])
		}
	}
	if fits == "" {
		params := trainingBytes(cfg, nil, 0, s.batchWords, s.workers)
		words := "words"
		if shortest == 1 {
			words = "word"
		}
		fits = fmt.Sprintf("; even its sentences of %d %s alone would not fit (about %d MiB, %d MiB of it the network's parameters and their training state): fewer labels or a smaller preset may fit",
			shortest, words, trainingBytes(cfg, c.Lengths, shortest, s.batchWords, s.workers)>>20, params>>20)
	}
	return &uploadError{Msg: fmt.Sprintf("training on this upload would take about %d MiB (its longest sentence has %d words, and it has %d labels), more than the %d MiB this server gives a job (--train-max-mb)%s",
		need>>20, longest, c.Labels, budget>>20, fits)}
}
