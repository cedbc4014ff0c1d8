package scorer

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/discspan/discspan/network"
)

// mean is an ensemble: the average of its members' outputs. It is used as a
// pointer so that Scorer values stay comparable.
type mean struct{ members []Scorer }

// Mean returns a Scorer whose results are the averages, entry by entry, of
// the members' results (cont, disc and gap scores and tag logits): an
// ensemble of models trained separately with one vocabulary. With one
// member it returns that member.
func Mean(members ...Scorer) Scorer {
	if len(members) == 1 {
		return members[0]
	}
	return &mean{members}
}

// MeanCPU returns the mean (see Mean) of the CPU reference over each model.
func MeanCPU(models []*network.Model) Scorer {
	members := make([]Scorer, len(models))
	for k, m := range models {
		members[k] = NewCPU(m)
	}
	return Mean(members...)
}

// Score scores the batch with every member and averages. Members that are
// Starters are started first and score while the others score here, in
// order; the sum is taken in member order whatever finishes first, so the
// results do not depend on where the members ran.
func (m *mean) Score(batch []network.Input) ([]Result, error) {
	e := m.members
	if len(e) == 0 {
		return nil, errors.New("scorer: an ensemble without members")
	}
	waits := make([]func() ([]Result, error), len(e))
	for k, s := range e {
		if st, ok := s.(Starter); ok {
			waits[k] = st.Start(batch)
		}
	}
	outs := make([][]Result, len(e))
	var first error
	for k, s := range e {
		if waits[k] != nil {
			continue
		}
		o, err := s.Score(batch)
		if err != nil {
			first = memberError(k, err)
			break
		}
		outs[k] = o
	}
	for k, wait := range waits {
		if wait == nil {
			continue
		}
		// Every started member is waited for, also after a failure, so
		// that none is still scoring when Score returns.
		o, err := wait()
		if err != nil && first == nil {
			first = memberError(k, err)
		}
		outs[k] = o
	}
	if first != nil {
		return nil, first
	}
	sum := outs[0]
	for k := 1; k < len(e); k++ {
		if len(outs[k]) != len(sum) {
			return nil, fmt.Errorf("scorer: ensemble member %d returned %d results for %d sentences", k, len(outs[k]), len(sum))
		}
		for i := range sum {
			if err := sameShape(sum[i], outs[k][i]); err != nil {
				return nil, fmt.Errorf("scorer: ensemble member %d, sentence %d: %w", k, i, err)
			}
		}
	}
	average(outs)
	return sum, nil
}

// average sets every result of outs[0] to the mean of the members' (sums
// in member order, then scaled), on up to GOMAXPROCS goroutines: the Alpino
// test set's results are 114 MiB a member, about 40 ms to average on one
// core.
func average(outs [][]Result) {
	scale := 1 / float32(len(outs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(outs[0])) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < len(outs[0]); i = int(next.Add(1)) - 1 {
				a := outs[0][i]
				for part := range 4 {
					dst := resultPart(a, part)
					for k := 1; k < len(outs); k++ {
						src := resultPart(outs[k][i], part)
						for j := range dst {
							dst[j] += src[j]
						}
					}
					for j := range dst {
						dst[j] *= scale
					}
				}
			}
		}()
	}
	wg.Wait()
}

// resultPart returns part 0..3 of r: its cont, disc and gap scores and its
// tag logits.
func resultPart(r Result, part int) []float32 {
	switch part {
	case 0:
		return r.Scores.Cont
	case 1:
		return r.Scores.Disc
	case 2:
		return r.Scores.Gap
	}
	return r.Tags
}

// memberError is err, unchanged for the first member (whose errors an
// ensemble reports as a single model would) and naming the member
// otherwise; errors.Is sees through both.
func memberError(k int, err error) error {
	if k == 0 {
		return err
	}
	return fmt.Errorf("ensemble member %d: %w", k, err)
}

// sameShape reports whether b is shaped as a (the ensemble's sum, which it
// owns: each member returns fresh results).
func sameShape(a, b Result) error {
	if a.Scores == nil || b.Scores == nil {
		return errors.New("a result without scores")
	}
	if a.Scores.N != b.Scores.N || a.Scores.L != b.Scores.L || len(a.Tags) != len(b.Tags) {
		return fmt.Errorf("result shaped n=%d labels=%d tags=%d, member 0's n=%d labels=%d tags=%d",
			b.Scores.N, b.Scores.L, len(b.Tags), a.Scores.N, a.Scores.L, len(a.Tags))
	}
	return nil
}

// Backend names the members' backends: "ensemble of 2: cpu", or every
// member's when they differ.
func (m *mean) Backend() string {
	e := m.members
	names := make([]string, len(e))
	same := true
	for k, s := range e {
		names[k] = s.Backend()
		same = same && names[k] == names[0]
	}
	if same && len(e) > 0 {
		return fmt.Sprintf("ensemble of %d: %s", len(e), names[0])
	}
	return fmt.Sprintf("ensemble of %d: %s", len(e), strings.Join(names, " + "))
}

// Close closes every member and returns the first error.
func (m *mean) Close() error {
	var first error
	for _, s := range m.members {
		if err := s.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
