package parser

import (
	"cmp"
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

// SentenceError is ParseBatch's error about one sentence of the batch.
type SentenceError struct {
	Index int // the sentence's index in the batch, from 0
	Err   error
}

func (e *SentenceError) Error() string { return fmt.Sprintf("sentence %d: %v", e.Index+1, e.Err) }

func (e *SentenceError) Unwrap() error { return e.Err }

// ParseBatch parses sentences with the decoder variant v and returns their
// results in order. The network scores chunks of at most ChunkWords words
// with its batched forward pass (its own goroutines, see network.Model's
// Workers) while workers goroutines (0: GOMAXPROCS), each with its own
// decode.Decoder, decode the chunks already scored; the scorer waits while
// workers scored sentences wait for a decoder, so that at most a chunk
// and twice workers sentences' scores are held at once. It refuses the batch
// when a sentence fails CheckWords or CheckFits, before scoring anything;
// otherwise it stops at the first error and returns it. An error about
// one sentence is a *SentenceError, which gives its index.
func (p *Parser) ParseBatch(sents [][]string, v decode.Variant, workers int) ([]*Result, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	for i, words := range sents {
		if err := cmp.Or(p.CheckWords(words), p.CheckFits(len(words), v)); err != nil {
			return nil, &SentenceError{Index: i, Err: fmt.Errorf("parser: %w", err)}
		}
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(sents)))
	results := make([]*Result, len(sents))
	errs := make([]error, len(sents))
	// Scored sentences wait for a decoder in a queue of one per worker:
	// the scorer, much faster than n5 and n6 decoders, would otherwise
	// keep running ahead, and the scores waiting would take the memory
	// (1.2 GB after a minute of 100-word sentences with n6 and a queue of
	// 256). Scoring the next chunk still overlaps decoding this one.
	jobs := make(chan job, workers)
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
					errs[j.i] = &SentenceError{Index: j.i, Err: err}
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
			return fmt.Errorf("parser: scoring sentences %d-%d: %w", lo+1, hi, err) // counted from 1
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
