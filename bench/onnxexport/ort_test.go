package onnxexport

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// ortTol is the tolerance of ONNX Runtime's scores against the CPU
// forward pass: |ort - go| <= ortTol * max(1, |go|) for every score of a
// pair x <= y and every tag logit. The two compute the same products in
// float32, in different orders and with different sigmoid and tanh
// approximations.
const ortTol = 1e-4

// TestORTMatchesForward exports the shipped model's first member, runs it
// with onnxruntime-web (wasm execution provider) under Node on a few
// Alpino dev sentences, and compares the outputs with network's Forward.
// It needs node and the pinned onnxruntime-web (make bench-ort installs
// it) and is skipped, saying why, without them.
func TestORTMatchesForward(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("no node in PATH: %v", err)
	}
	ort, why := ortDir()
	if ort == "" {
		t.Skip(why)
	}
	m, v := shippedModel(t)
	sents := devSentences(t)
	cases := append(slices.Clone(sents[:4]), firstWords(t, sents, 10, 40)...)
	dir := t.TempDir()
	onnx, err := Export(m.Params)
	if err != nil {
		t.Fatal(err)
	}
	modelPath := filepath.Join(dir, "model.onnx")
	if err := os.WriteFile(modelPath, onnx, 0o644); err != nil {
		t.Fatal(err)
	}
	var feeds []feedsJSON
	for _, words := range cases {
		feeds = append(feeds, toJSON(nil, NewFeeds(m.Config(), v.Encode(words))))
	}
	feedsPath := filepath.Join(dir, "feeds.json")
	data, err := json.Marshal(feeds)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(feedsPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join("testdata", "ort_run.cjs"), ort, modelPath, feedsPath)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("running onnxruntime-web under node: %v", err)
	}
	type tensor struct {
		Dims []int     `json:"dims"`
		Data []float64 `json:"data"`
	}
	var res struct {
		Version string              `json:"version"`
		Outputs []map[string]tensor `json:"outputs"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("reading the script's output: %v", err)
	}
	if len(res.Outputs) != len(cases) {
		t.Fatalf("%d outputs for %d sentences", len(res.Outputs), len(cases))
	}
	c := m.Config()
	var worstAbs, worstRel float64
	for i, words := range cases {
		want, err := m.Forward(v.Encode(words))
		if err != nil {
			t.Fatal(err)
		}
		n, L := len(words), c.Labels
		check := func(name string, got tensor, wantDims []int, want []float32, use func(i int) bool) {
			t.Helper()
			if !slices.Equal(got.Dims, wantDims) || len(got.Data) != len(want) {
				t.Fatalf("sentence %d (%d words): %s has shape %v (%d values), want %v", i, n, name, got.Dims, len(got.Data), wantDims)
			}
			bad := 0
			for j, w := range want {
				if !use(j) {
					continue
				}
				d := math.Abs(got.Data[j] - float64(w))
				worstAbs = max(worstAbs, d)
				worstRel = max(worstRel, d/max(1, math.Abs(float64(w))))
				if d > ortTol*max(1, math.Abs(float64(w))) {
					if bad < 5 {
						t.Errorf("sentence %d (%d words): %s[%d] = %g, Forward: %g", i, n, name, j, got.Data[j], w)
					}
					bad++
				}
			}
			if bad > 0 {
				t.Errorf("sentence %d: %s: %d values beyond the tolerance", i, name, bad)
			}
		}
		upper := func(j int) bool { x, y := j/L/n, j/L%n; return x <= y }
		s := want.Scores
		for name, w := range map[string][]float32{"cont": s.Cont, "disc": s.Disc, "gap": s.Gap} {
			check(name, res.Outputs[i][name], []int{n, n, L}, w, upper)
		}
		check("tags", res.Outputs[i]["tags"], []int{n, c.Tags}, want.Tags, func(int) bool { return true })
	}
	t.Logf("onnxruntime-web %s, %d dev sentences (%s words): max |ort - go| = %.3g, max |ort - go|/max(1,|go|) = %.3g (tolerance %g)",
		res.Version, len(cases), fmt.Sprint(lengths(cases)), worstAbs, worstRel, ortTol)
}

func lengths(sents [][]string) []int {
	out := make([]int, len(sents))
	for i, s := range sents {
		out[i] = len(s)
	}
	return out
}
