package scorer

import (
	"fmt"
	"slices"
	"sync"

	"github.com/discspan/discspan/network"
)

// Recorder is a Scorer that keeps, in order, every result its Scorer
// returns: score a set once (parser.ParseBatch, chunk by chunk), then
// decode it again and again from a Replay of Recorded.
type Recorder struct {
	Scorer
	mu   sync.Mutex
	outs []Result
}

// Score scores with the wrapped Scorer and keeps the results.
func (r *Recorder) Score(batch []network.Input) ([]Result, error) {
	outs, err := r.Scorer.Score(batch)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.outs = append(r.outs, outs...)
	r.mu.Unlock()
	return outs, nil
}

// Recorded returns the results kept so far, in the order they were scored.
func (r *Recorder) Recorded() []Result {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.outs
}

// Replay is a Scorer that returns recorded results in order, for decoding
// one scored set again (parser.ParseBatch scores its chunks in order from
// one goroutine; Rewind starts again from the first). A batch must have
// the recorded sentences' lengths. Without Copy it returns the recorded
// results themselves, which decoding only reads; with Copy, fresh copies,
// for a caller that writes into them (Mean sums into its first member's).
type Replay struct {
	Results []Result
	Copy    bool
	mu      sync.Mutex
	next    int
}

// Rewind makes the next Score start from the first recorded result.
func (r *Replay) Rewind() { r.mu.Lock(); r.next = 0; r.mu.Unlock() }

// Score returns the next len(batch) recorded results.
func (r *Replay) Score(batch []network.Input) ([]Result, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.next+len(batch) > len(r.Results) {
		return nil, fmt.Errorf("scorer: replay: %d sentences asked, %d left", len(batch), len(r.Results)-r.next)
	}
	out := slices.Clone(r.Results[r.next : r.next+len(batch)])
	for i, in := range batch {
		if out[i].Scores.N != in.Len() {
			return nil, fmt.Errorf("scorer: replay: sentence %d has %d words, its recorded scores %d", r.next+i, in.Len(), out[i].Scores.N)
		}
		if r.Copy {
			s := *out[i].Scores
			s.Cont, s.Disc, s.Gap = slices.Clone(s.Cont), slices.Clone(s.Disc), slices.Clone(s.Gap)
			out[i] = Result{Scores: &s, Tags: slices.Clone(out[i].Tags)}
		}
	}
	r.next += len(batch)
	return out, nil
}

// Backend is "replay".
func (r *Replay) Backend() string { return "replay" }

// Close does nothing.
func (r *Replay) Close() error { return nil }
