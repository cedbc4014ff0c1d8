//go:build js || (cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64))))

package webgpu

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
)

// TestShaderErrors checks that a kernel that does not compile, or does not
// fit the bind group layout, makes pipeline creation fail with an error
// matching ErrShader and scorer.ErrUnavailable (so that scorer.Select falls
// back to the CPU), on a real device.
func TestShaderErrors(t *testing.T) {
	s := openScorer(t, randomModel(t, microConfig(), 1).Params, Options{})
	cases := []struct {
		name string
		edit func(string) string
	}{
		{"syntax error", func(code string) string { return code + "\nfn broken( {" }},
		{"type error", func(code string) string { return strings.Replace(code, "let H = p.hid;", "let H: f32 = p.hid;", 1) }},
		{"binding outside the layout", func(code string) string {
			return code + "\n@group(0) @binding(7) var<storage, read_write> extra: array<f32>;\n" +
				"@compute @workgroup_size(1) fn touch() { extra[0] = 1.0; }\n"
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s.d.pushScopes()
			err := s.createPipelinesFrom(s.snippet, func(k kernel) (string, error) {
				code, _, err := kernelSource(k, s.snippet)
				if k == kLSTM {
					code = c.edit(code)
					if c.name == "binding outside the layout" {
						code = strings.Replace(code, "fn sentence(", "fn unused_sentence(", 1)
						code = strings.Replace(code, "fn touch()", "fn sentence()", 1)
					}
				}
				return code, err
			})
			if perr := s.d.popScopes(); err == nil && perr != nil {
				err = unavailable(ErrShader, "%v", perr)
			}
			if !errors.Is(err, ErrShader) || !errors.Is(err, scorer.ErrUnavailable) {
				t.Fatalf("err = %v, want one matching ErrShader and scorer.ErrUnavailable", err)
			}
			t.Logf("%v", firstLine(err))
		})
	}
}

// TestSelect checks scorer.Select with this backend: the GPU scorer when it
// can be built (and its results match the CPU's), the CPU otherwise.
func TestSelect(t *testing.T) {
	skipSlowAdapter(t)
	c := microConfig()
	m := randomModel(t, c, 4)
	var logged []string
	logf := func(format string, args ...any) { logged = append(logged, fmt.Sprintf(format, args...)) }
	gpu := func() (scorer.Scorer, error) { return New(m.Params, Options{}) }
	s := scorer.Select(true, m, gpu, logf)
	defer s.Close()
	if !strings.HasPrefix(s.Backend(), "webgpu") {
		if !VulkanDriverInstalled() {
			t.Skipf("no adapter: %v", logged)
		}
		t.Fatalf("Select chose %q (log %q)", s.Backend(), logged)
	}
	if d := againstCPU(t, s, m, randomBatch(c, 2, 4, 9, 1)); d.scores > tolF32 || d.trees > 0 {
		t.Errorf("%+v", d)
	}
	// Too long for the GPU: the batch goes to the CPU.
	long := randomBatch(c, 3, DefaultMaxWords+1)
	if _, err := s.Score(long); err != nil {
		t.Errorf("Score of a %d-word sentence: %v", DefaultMaxWords+1, err)
	}
	// The GPU refuses it directly with ErrTooLong.
	g, err := New(m.Params, Options{MaxWords: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if _, err := g.Score(randomBatch(c, 3, 11)); !errors.Is(err, scorer.ErrTooLong) {
		t.Errorf("Score of 11 words with MaxWords 10: %v, want ErrTooLong", err)
	}
	if _, err := g.Score([]network.Input{{WordIDs: []int{c.WordVocab}, CharIDs: [][]int{{0}}}}); err == nil || errors.Is(err, scorer.ErrUnavailable) {
		t.Errorf("Score of an out-of-vocabulary id: %v, want a plain error", err)
	}
}
