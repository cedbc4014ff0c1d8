package app_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
	"github.com/discspan/discspan/weights"
)

// fakeGPU is a "GPU" scorer: the CPU reference, slowed down by delay.
type fakeGPU struct {
	cpu   scorer.Scorer
	delay time.Duration
}

func (g fakeGPU) Score(b []network.Input) ([]scorer.Result, error) {
	time.Sleep(g.delay)
	return g.cpu.Score(b)
}
func (fakeGPU) Backend() string { return "webgpu: fake" }
func (fakeGPU) Close() error    { return nil }

func TestChooseBackend(t *testing.T) {
	data := apptest.Model(t, 1)
	gpu := func(software bool, delay time.Duration) app.GPUFunc {
		return func(p *network.Params, f16, allowSoftware bool) (scorer.Scorer, bool, error) {
			if software && !allowSoftware {
				return nil, true, fmt.Errorf("probe: %w", app.ErrSoftwareAdapter)
			}
			m := &network.Model{Params: p}
			return fakeGPU{scorer.NewCPU(m), delay}, software, nil
		}
	}
	for _, tc := range []struct {
		name, backend string
		gpu           app.GPUFunc
		wantBackend   string
		wantChoice    string
		wantSoftware  bool
	}{
		{"no gpu", "auto", nil, "cpu", "no WebGPU here", false},
		{"cpu asked", "cpu", gpu(false, 0), "cpu", "CPU asked for", false},
		{"software skipped", "auto", gpu(true, 0), "cpu", "software one", false},
		{"software forced", "webgpu", gpu(true, 0), "webgpu: fake", "WebGPU asked for", true},
		{"slow hardware", "auto", gpu(false, 30*time.Millisecond), "cpu", "CPU", false},
		{"broken", "auto", func(*network.Params, bool, bool) (scorer.Scorer, bool, error) {
			return nil, false, errors.New("no adapter\ndetails")
		}, "cpu", "WebGPU unavailable: no adapter", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &app.Local{GPU: tc.gpu}
			info, err := l.Load(context.Background(), data, "m", app.LoadOptions{Backend: tc.backend})
			if err != nil {
				t.Fatal(err)
			}
			if info.Backend != tc.wantBackend || !strings.Contains(info.Choice, tc.wantChoice) || info.Software != tc.wantSoftware {
				t.Errorf("got %q (%q, software %v), want %q (%q)", info.Backend, info.Choice, info.Software, tc.wantBackend, tc.wantChoice)
			}
			if _, err := l.Parse(context.Background(), app.Request{Words: apptest.Sentences[0], Variant: "n3"}); err != nil {
				t.Error(err)
			}
		})
	}
	if _, err := (&app.Local{}).Load(context.Background(), data, "m", app.LoadOptions{Backend: "cuda"}); err == nil {
		t.Error("unknown backend accepted")
	}
}

// TestEnsembleBackends loads an ensemble of two models on each backend:
// the engine reports both models, names the backend of each, and parses
// every sentence into the tree the CPU ensemble of parser.FromFile gives.
func TestEnsembleBackends(t *testing.T) {
	data := apptest.Ensemble(t, []uint64{1, 2})
	f, err := weights.Read(data, "ens")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := parser.FromFile(f)
	if err != nil {
		t.Fatal(err)
	}
	first, err := parser.New(&network.Model{Params: f.Members[0]}, f.Meta.Vocab)
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	gpus := 0
	gpu := func(p *network.Params, f16, allowSoftware bool) (scorer.Scorer, bool, error) {
		gpus++
		return fakeGPU{scorer.NewCPU(&network.Model{Params: p}), 0}, false, nil
	}
	for _, tc := range []struct{ backend, want string }{
		{"cpu", "ensemble of 2: cpu"},
		{"webgpu", "ensemble of 2: webgpu: fake"},
	} {
		t.Run(tc.backend, func(t *testing.T) {
			gpus = 0
			l := &app.Local{GPU: gpu}
			defer l.Close()
			info, err := l.Load(context.Background(), data, "ens", app.LoadOptions{Backend: tc.backend})
			if err != nil {
				t.Fatal(err)
			}
			if info.Backend != tc.want || info.Models != 2 || info.Params != 2*f.Params.Config().NumParams() {
				t.Fatalf("backend %q, %d models, %d parameters; want %q, 2, %d", info.Backend, info.Models, info.Params, tc.want, 2*f.Params.Config().NumParams())
			}
			if tc.backend == "webgpu" && gpus != 2 {
				t.Fatalf("%d GPU scorers built, want one per model", gpus)
			}
			differ = 0
			for _, words := range apptest.Sentences {
				got, err := l.Parse(context.Background(), app.Request{Words: words, Variant: "n3"})
				if err != nil {
					t.Fatal(err)
				}
				want, err := ref.ParseWords(words, decode.N3)
				if err != nil {
					t.Fatal(err)
				}
				if g, w := constituents(got.Tree), constituents(want.Tree); !slices.Equal(g, w) {
					t.Fatalf("%v:\n got %v\nwant %v", words, g, w)
				}
				alone, err := first.ParseWords(words, decode.N3)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(constituents(alone.Tree), constituents(want.Tree)) {
					differ++
				}
			}
			if differ == 0 {
				t.Fatal("the ensemble parses every sentence as its first model alone: the test cannot tell them apart")
			}
		})
	}
}
