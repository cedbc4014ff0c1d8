package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser/parsertest"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/webgpu"
)

// countingScorer stands for a WebGPU scorer: the CPU's scores, counted.
type countingScorer struct {
	scorer.Scorer
	batches *int
}

func (c countingScorer) Score(batch []network.Input) ([]scorer.Result, error) {
	*c.batches++
	return c.Scorer.Score(batch)
}

func (countingScorer) Backend() string { return "webgpu: fake" }

// testModelFile writes a small random model file (parsertest) and returns
// its path.
func testModelFile(t *testing.T, seeds ...uint64) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "model.safetensors")
	if err := os.WriteFile(path, parsertest.Ensemble(t, seeds), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestChooseParseScorer checks parse's --backend choice against adapters
// and self-checks of every kind (fakes stand for the device): what scores,
// whether the kernels were compiled at all, and the line that says why.
func TestChooseParseScorer(t *testing.T) {
	ms, err := readModels(testModelFile(t, 1, 2))
	if err != nil {
		t.Fatal(err)
	}
	hardware := webgpu.AdapterInfo{Name: "NVIDIA H200", Backend: "vulkan", Type: "discrete-gpu"}
	software := webgpu.AdapterInfo{Name: "llvmpipe", Backend: "vulkan", Type: "cpu", Software: true}
	selfCheckErr := fmt.Errorf("webgpu: %w: largest difference 0.42 on NVIDIA H200", webgpu.ErrSelfCheck)
	cases := []struct {
		name, backend string
		probe         webgpu.AdapterInfo
		probeErr      error
		openErr       error
		wantGPU       bool   // the fake device scores
		wantOpened    bool   // the kernels were built
		wantLine      string // in the line
	}{
		{name: "cpu", backend: "cpu", probe: hardware, wantLine: "scoring on the CPU"},
		{name: "auto, hardware", backend: "auto", probe: hardware, wantGPU: true, wantOpened: true, wantLine: "scoring with WebGPU on NVIDIA H200 (vulkan, discrete-gpu)"},
		{name: "auto, software", backend: "auto", probe: software, wantLine: "scoring on the CPU: WebGPU's only adapter, llvmpipe (vulkan, cpu), software, is slower than the CPU (--backend webgpu uses it anyway)"},
		{name: "auto, no adapter", backend: "auto", probeErr: webgpu.ErrNoAdapter, wantLine: "scoring on the CPU: no WebGPU adapter (webgpu: no adapter)"},
		{name: "webgpu, software", backend: "webgpu", probe: software, wantGPU: true, wantOpened: true, wantLine: "scoring with WebGPU on llvmpipe"},
		{name: "webgpu, self-check refuses", backend: "webgpu", probe: hardware, openErr: selfCheckErr, wantOpened: true,
			wantLine: "scoring on the CPU: WebGPU refused by its self-check (webgpu: self-check failed: largest difference 0.42 on NVIDIA H200)"},
		{name: "auto, self-check refuses", backend: "auto", probe: hardware, openErr: selfCheckErr, wantOpened: true, wantLine: "refused by its self-check"},
		{name: "webgpu, no device", backend: "webgpu", openErr: webgpu.ErrNoAdapter, wantOpened: true, wantLine: "scoring on the CPU: WebGPU unavailable (webgpu: no adapter)"},
		{name: "webgpu, no adapter", backend: "webgpu", probeErr: webgpu.ErrNoAdapter, wantLine: "scoring on the CPU: no WebGPU adapter (webgpu: no adapter)"},
	}
	batch := []network.Input{ms.Vocab.Encode(parsertest.Sentences[0])}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var batches int
			opened := false
			gpu := gpuOpener{
				probe: func(webgpu.Options) (webgpu.AdapterInfo, error) { return c.probe, c.probeErr },
				open: func(ps []*network.Params, o webgpu.Options) (scorer.Scorer, webgpu.AdapterInfo, error) {
					opened = true
					if len(ps) != 2 || o.MaxWords < 40 || o.ChunkTokens != 300 {
						t.Errorf("open: %d models, MaxWords %d, ChunkTokens %d; want the ensemble's 2, at least 40 words and parse's 300 tokens a batch", len(ps), o.MaxWords, o.ChunkTokens)
					}
					if c.openErr != nil {
						return nil, webgpu.AdapterInfo{}, c.openErr
					}
					return countingScorer{scorer.MeanCPU(ms.Models), &batches}, c.probe, nil
				},
			}
			var logged []string
			logf := func(format string, args ...any) { logged = append(logged, fmt.Sprintf(format, args...)) }
			s, line, err := chooseParseScorer(c.backend, ms, 40, 300, gpu, logf)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if !strings.Contains(line, c.wantLine) {
				t.Errorf("line %q, want it to hold %q", line, c.wantLine)
			}
			if opened != c.wantOpened {
				t.Errorf("kernels built: %v, want %v", opened, c.wantOpened)
			}
			if said := len(logged) == 1 && strings.HasPrefix(logged[0], "building the WebGPU kernels on "); said != c.wantOpened || len(logged) > 1 {
				t.Errorf("said before: %q; want one line before the kernels are built, none otherwise", logged)
			}
			got, err := s.Score(batch)
			if err != nil {
				t.Fatal(err)
			}
			want, err := scorer.MeanCPU(ms.Models).Score(batch)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got[0].Tags, want[0].Tags) {
				t.Errorf("tag logits %v, want the CPU mean's %v", got[0].Tags, want[0].Tags)
			}
			if (batches > 0) != c.wantGPU {
				t.Errorf("the device scored %d batches; want it used: %v", batches, c.wantGPU)
			}
		})
	}
	// A batch of more tokens than a chunk holds by default asks for the
	// default: the layout's limit on the device's memory.
	var asked int
	large := gpuOpener{
		probe: func(webgpu.Options) (webgpu.AdapterInfo, error) { return webgpu.AdapterInfo{}, nil },
		open: func(ps []*network.Params, o webgpu.Options) (scorer.Scorer, webgpu.AdapterInfo, error) {
			asked = o.ChunkTokens
			return scorer.MeanCPU(ms.Models), webgpu.AdapterInfo{}, nil
		},
	}
	if s, _, err := chooseParseScorer("webgpu", ms, 40, 1<<20, large, t.Logf); err != nil {
		t.Fatal(err)
	} else {
		s.Close()
	}
	if asked != webgpu.DefaultChunkTokens {
		t.Errorf("a batch of %d tokens asked for chunks of %d, want %d", 1<<20, asked, webgpu.DefaultChunkTokens)
	}
	if _, _, err := chooseParseScorer("cuda", ms, 40, 300, nativeGPU(), t.Logf); !errors.Is(err, errUsage) {
		t.Errorf("--backend cuda: %v, want a usage error", err)
	}
}

// TestParseBackend runs parse with each --backend on this machine's own
// WebGPU (lavapipe or llvmpipe here, a software adapter; none at all on
// some machines) with a small random model: every backend gives the CPU's
// trees, standard error says in one line which backend scored, and auto
// never scores on a software adapter.
func TestParseBackend(t *testing.T) {
	model := testModelFile(t, 3)
	in := filepath.Join(t.TempDir(), "in.txt")
	var text strings.Builder
	for _, s := range parsertest.Sentences {
		text.WriteString(strings.Join(s, " ") + "\n")
	}
	if err := os.WriteFile(in, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	parse := func(backend string) (string, string) {
		out, stderr, status := runCmd("parse", "--weights", model, "--input", in, "--backend", backend)
		if status != 0 {
			t.Fatalf("--backend %s: status %d: %s", backend, status, stderr)
		}
		var lines, building []string
		for _, l := range strings.Split(stderr, "\n") {
			switch {
			case strings.HasPrefix(l, "discspan parse: scoring "):
				lines = append(lines, l)
			case strings.HasPrefix(l, "discspan parse: building the WebGPU kernels on "):
				building = append(building, l)
			}
		}
		if backend == backendCPU && len(lines)+len(building) != 0 || backend != backendCPU && len(lines) != 1 {
			t.Errorf("--backend %s: standard error says %q; want one line saying what scores for a WebGPU backend, none for the CPU", backend, lines)
		}
		if len(building) > 1 || len(building) == 1 && !strings.Contains(lines[0], "WebGPU") {
			t.Errorf("--backend %s: %q before %q; want at most one line, before WebGPU's kernels are built", backend, building, lines)
		}
		return out, strings.Join(lines, "\n")
	}
	// A backend that does not exist is refused before the weights or the
	// input are read.
	if _, stderr, status := runCmd("parse", "--backend", "cuda", "--input", filepath.Join(t.TempDir(), "missing.txt")); status != 2 || !strings.Contains(stderr, `--backend "cuda": want cpu, webgpu or auto`) {
		t.Errorf("--backend cuda: status %d, %q; want 2 and the backends named", status, stderr)
	}
	cpu, _ := parse(backendCPU)
	if strings.Count(cpu, "(ROOT") != len(parsertest.Sentences) {
		t.Fatalf("--backend cpu: %q", cpu)
	}
	for _, backend := range []string{backendAuto, backendWebGPU} {
		out, line := parse(backend)
		t.Logf("--backend %s: %s", backend, line)
		if out != cpu {
			t.Errorf("--backend %s: trees\n%s\nwant the CPU's\n%s", backend, out, cpu)
		}
		info, err := webgpu.ProbeAdapter(webgpu.Options{})
		switch {
		case err != nil:
			if !strings.Contains(line, "scoring on the CPU") || !strings.Contains(line, err.Error()) {
				t.Errorf("--backend %s without an adapter (%v): %q; want the CPU used and the reason given", backend, err, line)
			}
		case backend == backendAuto && info.Software:
			if !strings.Contains(line, "is slower than the CPU") {
				t.Errorf("--backend auto on the software adapter %s: %q", info, line)
			}
		case !strings.Contains(line, "scoring with WebGPU on "+info.Name) || !strings.Contains(line, "self-check: "):
			t.Errorf("--backend %s on %s: %q; want WebGPU used after its self-check", backend, info, line)
		}
	}
}
