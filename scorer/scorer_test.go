package scorer

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/discspan/discspan/network"
)

// fake is a GPU stand-in: it returns the CPU's results until told to fail.
type fake struct {
	cpu    Scorer
	err    error // returned by Score when set
	calls  int
	closed bool
}

func (f *fake) Score(b []network.Input) ([]Result, error) {
	f.calls++
	if f.err != nil {
		return nil, f.err
	}
	return f.cpu.Score(b)
}
func (f *fake) Backend() string { return "fake gpu" }

// startingFake is a fake whose work can be started (a Starter).
type startingFake struct {
	*fake
	started int
}

func (f *startingFake) Start(b []network.Input) func() ([]Result, error) {
	f.started++
	out, err := f.fake.Score(b)
	return func() ([]Result, error) { return out, err }
}

func (f *fake) Close() error { f.closed = true; return nil }

func tinyModel(t *testing.T) *network.Model {
	t.Helper()
	c := network.Config{
		WordDim: 4, CharDim: 3, CharHidden: 3, MaxChars: 4, LSTM1Hidden: 4, LSTM2Hidden: 4,
		LabelMLP: 3, SpanMLP: 3, Labels: 2, Tags: 2, WordVocab: 10, CharVocab: 8, LeakySlope: 0.1,
	}
	m, err := network.New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sentence(n int) network.Input {
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	in := network.Input{WordIDs: make([]int, n), CharIDs: make([][]int, n)}
	for i := range n {
		in.WordIDs[i] = rng.IntN(10)
		in.CharIDs[i] = []int{rng.IntN(8), rng.IntN(8)}
	}
	return in
}

func TestSelect(t *testing.T) {
	m := tinyModel(t)
	batch := []network.Input{sentence(3), sentence(5)}
	cases := []struct {
		name      string
		prefer    bool
		build     error // error of the GPU constructor
		scoreErr  error // error of the GPU's Score
		want      string
		wantLog   string // substring of the log, "" for none
		wantErr   bool
		wantClose bool
	}{
		{"cpu asked", false, nil, nil, "cpu", "", false, false},
		{"gpu", true, nil, nil, "fake gpu", "", false, false},
		{"no adapter", true, fmt.Errorf("webgpu: no adapter: %w", ErrUnavailable), nil, "cpu", "GPU backend unavailable, using the CPU: webgpu: no adapter", false, false},
		{"device lost", true, nil, fmt.Errorf("device lost: %w", ErrUnavailable), "cpu", "fake gpu failed, using the CPU from now on: device lost", false, true},
		{"too long", true, nil, fmt.Errorf("201 words: %w", ErrTooLong), "fake gpu", "", false, false},
		{"bad input", true, nil, errors.New("id outside the vocabulary"), "fake gpu", "", true, false},
	}
	for _, c := range cases {
		// Through Score, and through Start with a GPU that is a Starter
		// (as webgpu.Scorer is): the same answers, fallbacks and logs.
		for _, via := range []string{"Score", "Start"} {
			t.Run(c.name+" via "+via, func(t *testing.T) {
				var log []string
				logf := func(format string, args ...any) { log = append(log, fmt.Sprintf(format, args...)) }
				g := &fake{cpu: NewCPU(m), err: c.scoreErr}
				var gpu Scorer = g
				sg := &startingFake{fake: g}
				if via == "Start" {
					gpu = sg
				}
				s := Select(c.prefer, m, func() (Scorer, error) {
					if c.build != nil {
						return nil, c.build
					}
					return gpu, nil
				}, logf)
				var got []Result
				var err error
				if st, ok := s.(Starter); ok && via == "Start" {
					got, err = st.Start(batch)()
					if c.prefer && c.build == nil && sg.started != 1 {
						t.Errorf("the GPU was started %d times, want once", sg.started)
					}
				} else {
					got, err = s.Score(batch)
				}
				if (err != nil) != c.wantErr {
					t.Fatalf("Score error %v, want error %v", err, c.wantErr)
				}
				if err == nil && (len(got) != 2 || got[1].Scores.N != 5) {
					t.Fatalf("Score returned %d results", len(got))
				}
				if b := s.Backend(); b != c.want {
					t.Errorf("Backend() = %q, want %q", b, c.want)
				}
				joined := strings.Join(log, "\n")
				if c.wantLog == "" && joined != "" || !strings.Contains(joined, c.wantLog) {
					t.Errorf("log %q, want %q", joined, c.wantLog)
				}
				if g.closed != c.wantClose {
					t.Errorf("GPU closed = %v, want %v", g.closed, c.wantClose)
				}
				if c.name == "device lost" { // later calls go straight to the CPU
					calls := g.calls
					if _, err := s.Score(batch); err != nil || g.calls != calls {
						t.Errorf("after the failure: err %v, GPU calls %d -> %d", err, calls, g.calls)
					}
				}
				if err := s.Close(); err != nil {
					t.Error(err)
				}
			})
		}
	}
}
