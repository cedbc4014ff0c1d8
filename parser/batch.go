package parser

import (
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/network"
)

// job is one scored sentence waiting to be decoded.
type job struct {
	i     int
	out   network.Output
	score time.Duration
}

// ParseBatch parses sentences with the decoder variant v and returns their
// results in order. The network scores chunks of at most ChunkWords words
// with its batched forward pass (its own goroutines, see network.Model's
// Workers) while workers goroutines (0: GOMAXPROCS), each with its own
// decode.Decoder, decode the chunks already scored. It refuses the batch
// when a sentence fails CheckWords, before scoring anything; otherwise it
// stops at the first error and returns it, naming the sentence.
func (p *Parser) ParseBatch(sents [][]string, v decode.Variant, workers int) ([]*Result, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	for i, words := range sents {
		if err := p.CheckWords(words); err != nil {
			return nil, fmt.Errorf("parser: sentence %d: %w", i+1, err)
		}
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(sents)))
	results := make([]*Result, len(sents))
	errs := make([]error, len(sents))
	jobs := make(chan job, 256)
	stop := make(chan struct{})
	var stopOnce sync.Once
	fail := func() { stopOnce.Do(func() { close(stop) }) }

	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			dec := decode.NewDecoder(&p.Decode)
			for j := range jobs {
				select {
				case <-stop:
					continue // drain
				default:
				}
				r, err := p.build(dec, sents[j.i], j.out, v, nil)
				if err != nil {
					errs[j.i] = fmt.Errorf("sentence %d: %w", j.i+1, err) // counted from 1
					fail()
					continue
				}
				r.Timing.Score = j.score
				results[j.i] = r
			}
		})
	}

	scoreErr := p.scoreChunks(sents, jobs, stop)
	close(jobs)
	wg.Wait()
	if scoreErr != nil {
		return nil, scoreErr
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, nil
}

// scoreChunks scores the sentences chunk by chunk and sends every scored
// sentence to jobs, until done or stop is closed.
func (p *Parser) scoreChunks(sents [][]string, jobs chan<- job, stop <-chan struct{}) error {
	limit := p.ChunkWords
	if limit <= 0 {
		limit = DefaultChunkWords
	}
	sc := p.scorer()
	for lo := 0; lo < len(sents); {
		hi, words := lo, 0
		for hi < len(sents) && (hi == lo || words+len(sents[hi]) <= limit) {
			words += len(sents[hi])
			hi++
		}
		ins := make([]network.Input, hi-lo)
		for i := range ins {
			ins[i] = p.Vocab.Encode(sents[lo+i])
		}
		start := time.Now()
		outs, err := sc.Score(ins)
		if err != nil {
			return fmt.Errorf("parser: scoring sentences %d..%d: %w", lo, hi-1, err)
		}
		if len(outs) != len(ins) {
			return fmt.Errorf("parser: scorer returned %d outputs for %d sentences", len(outs), len(ins))
		}
		elapsed := time.Since(start)
		for i, out := range outs {
			share := elapsed
			if words > 0 {
				share = time.Duration(float64(elapsed) * float64(len(sents[lo+i])) / float64(words))
			}
			select {
			case jobs <- job{i: lo + i, out: out, score: share}:
			case <-stop:
				return nil
			}
		}
		lo = hi
	}
	return nil
}
