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

// trainingBytes estimates the memory that training cfg on sentences of
// the given lengths takes (an upper bound as far as the network's
// measured bounds go):
//   - a step's work memory: batches hold sentences of about one length
//     (train's makeBatches sorts them), as many as batchWords words hold
//     or one longer sentence, each at most network.TrainingBytes;
//   - the work memory the network keeps between steps (at most 1 GiB, and
//     no more than a step takes);
//   - the parameters: the weights, their gradient, the optimiser's two
//     moments, the copy prepared for the step (about twice the weights)
//     and a gradient buffer for every other worker.
func trainingBytes(cfg network.Config, lengths []int, batchWords, workers int) int64 {
	var step int64
	for _, n := range lengths {
		perBatch := int64(max(1, batchWords/n))
		step = max(step, perBatch*cfg.TrainingBytes(n))
	}
	params := 4 * int64(cfg.NumParams()) * int64(6+workers-1)
	return step + min(step, 1<<30) + params
}

// checkMemory refuses (with an *uploadError) an upload whose training
// would take more than budget bytes, saying how long the sentences may be
// for it to fit.
func (c converted) checkMemory(cfg network.Config, s trainShape, budget int64) error {
	lengths := slices.Sorted(maps.Keys(c.Lengths))
	need := trainingBytes(cfg, lengths, s.batchWords, s.workers)
	if need <= budget {
		return nil
	}
	longest := 0
	if len(lengths) > 0 {
		longest = lengths[len(lengths)-1]
	}
	// What would fit: the upload without its longest sentences, or else
	// sentences of one length (the estimate of a batch of short
	// sentences is not the smallest: many of them make a batch).
	fits := ""
	for k := len(lengths) - 1; k > 0 && fits == ""; k-- {
		if trainingBytes(cfg, lengths[:k], s.batchWords, s.workers) <= budget {
			fits = fmt.Sprintf("; without its sentences of more than %d words it would fit", lengths[k-1])
		}
	}
	for n := longest - 1; n > 0 && fits == ""; n-- {
		if trainingBytes(cfg, []int{n}, s.batchWords, s.workers) <= budget {
			fits = fmt.Sprintf("; sentences of up to %d words would fit", n)
		}
	}
	if fits == "" {
		fits = fmt.Sprintf("; no sentence length would fit: a batch of %d one-word sentences would take about %d MiB, %d MiB of it the network's parameters and their training state (a smaller preset, or fewer labels, may fit)",
			s.batchWords, trainingBytes(cfg, []int{1}, s.batchWords, s.workers)>>20, trainingBytes(cfg, nil, s.batchWords, s.workers)>>20)
	}
	return &uploadError{Msg: fmt.Sprintf("training on this upload would take about %d MiB (its longest sentence has %d words, and it has %d labels), more than the %d MiB this server gives a job (--train-max-mb)%s",
		need>>20, longest, c.Labels, budget>>20, fits)}
}
