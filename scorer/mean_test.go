package scorer

import (
	"errors"
	"strings"
	"testing"

	"github.com/discspan/discspan/network"
)

// seeded returns a random tiny model (see tinyModel) with its own seed.
func seeded(t *testing.T, seed uint64) *network.Model {
	t.Helper()
	m, err := network.New(tinyModel(t).Config(), seed)
	if err != nil {
		t.Fatal(err)
	}
	// A fresh model's biaffine weights are zero; give them values so that
	// the members' scores differ.
	for _, p := range m.Params.Tensors() {
		for i := range p.Data {
			if p.Data[i] == 0 {
				p.Data[i] = float32(seed) * 0.01 * float32(i%7-3)
			}
		}
	}
	return m
}

func TestMean(t *testing.T) {
	batch := []network.Input{sentence(3), sentence(6), sentence(1)}
	a, b, c := seeded(t, 1), seeded(t, 2), seeded(t, 3)
	var outs [][]network.Output
	for _, m := range []*network.Model{a, b, c} {
		o, err := m.ForwardBatch(batch)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, o)
	}
	s := Mean(NewCPU(a), NewCPU(b), NewCPU(c))
	got, err := s.Score(batch)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(batch) {
		t.Fatalf("%d results for %d sentences", len(got), len(batch))
	}
	for i := range batch {
		pairs := []struct {
			name string
			get  func(network.Output) []float32
		}{
			{"cont", func(o network.Output) []float32 { return o.Scores.Cont }},
			{"disc", func(o network.Output) []float32 { return o.Scores.Disc }},
			{"gap", func(o network.Output) []float32 { return o.Scores.Gap }},
			{"tags", func(o network.Output) []float32 { return o.Tags }},
		}
		for _, p := range pairs {
			g := p.get(got[i])
			differ := false
			for j := range g {
				x, y, z := p.get(outs[0][i])[j], p.get(outs[1][i])[j], p.get(outs[2][i])[j]
				want := (x + y + z) * (1 / float32(3))
				if d := g[j] - want; d > 1e-5 || d < -1e-5 {
					t.Fatalf("sentence %d %s[%d] = %v, want the mean %v of %v, %v, %v", i, p.name, j, g[j], want, x, y, z)
				}
				differ = differ || x != y
			}
			if !differ && len(g) > 0 {
				t.Fatalf("sentence %d %s: the members agree everywhere; the test cannot see the averaging", i, p.name)
			}
		}
	}
	if got := s.Backend(); got != "ensemble of 3: cpu" {
		t.Errorf("Backend() = %q", got)
	}
	if one := NewCPU(a); Mean(one) != one {
		t.Error("Mean of one scorer is not that scorer")
	}
}

func TestMeanErrorsAndClose(t *testing.T) {
	m := tinyModel(t)
	broken := &fake{cpu: NewCPU(m), err: errors.New("device lost")}
	ok := &fake{cpu: NewCPU(m)}
	s := Mean(ok, broken)
	if _, err := s.Score([]network.Input{sentence(4)}); err == nil || !strings.Contains(err.Error(), "device lost") {
		t.Fatalf("error %v, want the member's", err)
	}
	if got := s.Backend(); got != "ensemble of 2: fake gpu" {
		t.Errorf("Backend() = %q", got)
	}
	if err := s.Close(); err != nil || !ok.closed || !broken.closed {
		t.Fatalf("Close: %v, members closed %v %v", err, ok.closed, broken.closed)
	}
	mixed := Mean(NewCPU(m), &fake{cpu: NewCPU(m)})
	if got := mixed.Backend(); got != "ensemble of 2: cpu + fake gpu" {
		t.Errorf("Backend() = %q", got)
	}
	if _, err := Mean().Score([]network.Input{sentence(2)}); err == nil {
		t.Error("an ensemble without members scored")
	}
}

// started is a Starter over a CPU scorer that logs when it is started and
// waited for; err, when set, is what its wait returns.
type started struct {
	Scorer
	name string
	log  *[]string
	err  error
}

func (s *started) Start(batch []network.Input) func() ([]Result, error) {
	*s.log = append(*s.log, "start "+s.name)
	return func() ([]Result, error) {
		*s.log = append(*s.log, "wait "+s.name)
		if s.err != nil {
			return nil, s.err
		}
		return s.Scorer.Score(batch)
	}
}

// logged is a Scorer over a CPU scorer that logs its calls.
type logged struct {
	Scorer
	name string
	log  *[]string
}

func (s *logged) Score(batch []network.Input) ([]Result, error) {
	*s.log = append(*s.log, "score "+s.name)
	return s.Scorer.Score(batch)
}

func TestMeanStartsStartersFirst(t *testing.T) {
	batch := []network.Input{sentence(5), sentence(2)}
	a, b, c := seeded(t, 1), seeded(t, 2), seeded(t, 3)
	want, err := Mean(NewCPU(a), NewCPU(b), NewCPU(c)).Score(batch)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		failB   error
		wantLog string
		wantErr string
	}{
		{"parallel", nil, "start b, score a, score c, wait b", ""},
		{"started member fails", errors.New("worker died"), "start b, score a, score c, wait b", "ensemble member 1: worker died"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var log []string
			s := Mean(&logged{NewCPU(a), "a", &log}, &started{NewCPU(b), "b", &log, tc.failB}, &logged{NewCPU(c), "c", &log})
			got, err := s.Score(batch)
			if gotLog := strings.Join(log, ", "); gotLog != tc.wantLog {
				t.Errorf("calls %q, want %q", gotLog, tc.wantLog)
			}
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// Summed in member order wherever the members ran: equal to
			// the sequential ensemble bit for bit.
			for i := range want {
				for _, p := range [][2][]float32{{got[i].Scores.Cont, want[i].Scores.Cont}, {got[i].Scores.Disc, want[i].Scores.Disc}, {got[i].Scores.Gap, want[i].Scores.Gap}, {got[i].Tags, want[i].Tags}} {
					for j := range p[1] {
						if p[0][j] != p[1][j] {
							t.Fatalf("sentence %d: entry %d is %v, the sequential ensemble's %v", i, j, p[0][j], p[1][j])
						}
					}
				}
			}
		})
	}
}

func TestBackground(t *testing.T) {
	m := tinyModel(t)
	batch := []network.Input{sentence(4)}
	want, err := NewCPU(m).Score(batch)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Background(func() ([]Result, error) { return NewCPU(m).Score(batch) })()
	if err != nil || len(got) != 1 || Compare(got[0], want[0]) != (Diff{Where: "cont scores"}) {
		t.Errorf("Background: %v, %v; want the scores of Score", got, err)
	}
	if _, err := Background(func() ([]Result, error) { return nil, errors.New("lost") })(); err == nil || err.Error() != "lost" {
		t.Errorf("Background's error: %v", err)
	}
}
