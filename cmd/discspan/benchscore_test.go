package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/discspan/discspan/bench"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/webgpu"
)

// shippedWeights is the shipped default model's file (an int8 ensemble of
// two models).
func shippedWeights(t *testing.T) string {
	t.Helper()
	p := filepath.Join("..", "..", "weights", "default.safetensors")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shipped weights not found at %s: %v", p, err)
	}
	return p
}

// devSample writes the first n sentences of the Alpino dev set that have at
// most maxWords words to a discbracket file and returns its path and their
// word count.
func devSample(t *testing.T, n, maxWords int) (string, int) {
	t.Helper()
	f, err := os.Open(dataPath(t, "dev.punctmoved.discbracket"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	words := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for sc.Scan() && len(lines) < n {
		trees, err := treebank.ReadAll(strings.NewReader(sc.Text()), "dev", treebank.Discbracket)
		if err != nil || len(trees) != 1 {
			t.Fatalf("dev line %q: %v", sc.Text(), err)
		}
		if k := len(trees[0].Words()); k <= maxWords {
			lines = append(lines, sc.Text())
			words += k
		}
	}
	if len(lines) < n {
		t.Fatalf("only %d dev sentences of at most %d words", len(lines), maxWords)
	}
	p := filepath.Join(t.TempDir(), "sample.discbracket")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p, words
}

// tableRows returns the cells of the table rows of bench score's output
// whose first cell is backend.
func tableRows(out, backend string) [][]string {
	var rows [][]string
	for line := range strings.Lines(out) {
		if !strings.HasPrefix(line, "| "+backend+" |") {
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	return rows
}

// jsonRows decodes bench score's --json output.
func jsonRows(t *testing.T, out string) []bench.ScoreRow {
	t.Helper()
	var rows []bench.ScoreRow
	for line := range strings.Lines(out) {
		var r bench.ScoreRow
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("line %q is not JSON: %v", line, err)
		}
		rows = append(rows, r)
	}
	return rows
}

func TestBenchScoreCPU(t *testing.T) {
	input, words := devSample(t, 6, 40)
	w := shippedWeights(t)
	out, stderr, status := runCmd("bench", "score", "--weights", w, "--input", input, "--backends", "cpu", "--batch", "4", "--runs", "2")
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	t.Logf("\n%s", out)
	if !strings.Contains(out, "| backend | device | sentences | words |") {
		t.Errorf("no table header:\n%s", out)
	}
	rows := tableRows(out, "cpu")
	if len(rows) != 1 || len(rows[0]) != 12 {
		t.Fatalf("cpu rows %q, want one of 12 cells", rows)
	}
	r := rows[0]
	if r[2] != "6" || r[3] != strconv.Itoa(words) {
		t.Errorf("sentences %s words %s, want 6 and %d", r[2], r[3], words)
	}
	if r[5] != "0.000" {
		t.Errorf("self-check %s on the CPU, want 0.000", r[5])
	}
	for i := 6; i <= 9; i++ { // first pass, best, median, sentences/s
		if v, err := strconv.ParseFloat(r[i], 64); err != nil || v <= 0 {
			t.Errorf("cell %d = %q, want a positive number", i, r[i])
		}
	}
	if r[10] != "0" || r[11] != "0" {
		t.Errorf("the CPU's timed passes differ from its first pass: %s, %s", r[10], r[11])
	}
	if len(tableRows(out, "webgpu")) != 0 {
		t.Error("a webgpu row without --backends webgpu")
	}

	out, stderr, status = runCmd("bench", "score", "--weights", w, "--input", input, "--backends", "cpu", "--batch", "64", "--runs", "1", "--json")
	if status != 0 {
		t.Fatalf("--json: status %d: %s", status, stderr)
	}
	js := jsonRows(t, out)
	if len(js) != 1 {
		t.Fatalf("--json: %d lines, want 1:\n%s", len(js), out)
	}
	j := js[0]
	if j.Backend != "cpu" || j.Sentences != 6 || j.Words != words || j.Models != 2 || j.Batch != 64 || j.Runs != 1 || j.Err != "" {
		t.Errorf("--json row %+v", j)
	}
	if j.FirstPassSeconds <= 0 || j.BestSeconds <= 0 || j.MedianSeconds != j.BestSeconds || j.SentencesPerSecond <= 0 {
		t.Errorf("--json timings %+v", j)
	}
	if j.MaxAbsDiff == nil || *j.MaxAbsDiff != 0 || j.MaxAbsDiffTags == nil || *j.MaxAbsDiffTags != 0 {
		t.Errorf("--json differences %v %v, want 0 and 0", j.MaxAbsDiff, j.MaxAbsDiffTags)
	}
}

func TestBenchScoreWebGPU(t *testing.T) {
	// Two short sentences: lavapipe scores the shipped model at about one
	// sentence a second. --gpu-max-words 20: the self-check's longest canary
	// sentence has 20 words, not 200 (about 13 s a scorer on lavapipe).
	input, words := devSample(t, 2, 8)
	out, stderr, status := runCmd("bench", "score", "--weights", shippedWeights(t), "--input", input, "--backends", "webgpu,webgpu-per-model,cpu", "--runs", "1", "--gpu-max-words", "20", "--json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	t.Logf("\n%s", out)
	rows := jsonRows(t, out)
	if len(rows) != 3 || rows[0].Backend != "cpu" || rows[1].Backend != "webgpu" || rows[2].Backend != "webgpu-per-model" {
		t.Fatalf("rows %+v, want cpu, webgpu, webgpu-per-model", rows)
	}
	for _, g := range rows[1:] {
		checkWebGPURow(t, g, words)
		if g.MaxWords != 20 {
			t.Errorf("%s: max_words %d, want 20 (--gpu-max-words)", g.Backend, g.MaxWords)
		}
	}
	if rows[0].MaxWords != 0 {
		t.Errorf("cpu: max_words %d, want none", rows[0].MaxWords)
	}
}

// checkWebGPURow checks a WebGPU row of bench score over the 2 sentences
// of words words: timings, self-check and agreement with the CPU; it skips
// where there is no adapter and no Vulkan driver.
func checkWebGPURow(t *testing.T, g bench.ScoreRow, words int) {
	t.Helper()
	if g.Unavailable {
		if webgpu.VulkanDriverInstalled() {
			t.Fatalf("a Vulkan driver is installed but WebGPU is unavailable: %s", g.Err)
		}
		t.Skipf("no WebGPU adapter and no Vulkan driver (apt-get install -y mesa-vulkan-drivers libvulkan1): %s", g.Err)
	}
	if g.Err != "" {
		t.Fatalf("%s: %s", g.Backend, g.Err)
	}
	if g.Sentences != 2 || g.Words != words || g.Device == "" || g.SetupSeconds <= 0 || g.FirstPassSeconds <= 0 || g.BestSeconds <= 0 ||
		!(g.SelfCheckSeconds > 0 && g.SelfCheckSeconds < g.SetupSeconds) {
		t.Errorf("%s row %+v", g.Backend, g)
	}
	// The shipped models' scores agree to 1.8e-4 (docs/gpu.md, TestEquivalence*).
	if g.MaxAbsDiff == nil || *g.MaxAbsDiff > 1e-3 || g.MaxAbsDiffTags == nil || *g.MaxAbsDiffTags > 1e-3 {
		t.Errorf("%s differs from the CPU by %v (scores), %v (tags)", g.Backend, g.MaxAbsDiff, g.MaxAbsDiffTags)
	}
}

func TestBenchScoreErrors(t *testing.T) {
	dir := t.TempDir()
	w := shippedWeights(t)
	input, _ := devSample(t, 1, 40)
	bad := filepath.Join(dir, "bad.safetensors")
	if err := os.WriteFile(bad, []byte("not a weights file"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.txt")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.discbracket")
	cases := []struct {
		name string
		args []string
		want string // in the error message
	}{
		{"missing input", []string{"--weights", w, "--input", missing}, "missing.discbracket"},
		{"no input", []string{"--weights", w}, "--input is required"},
		{"empty input", []string{"--weights", w, "--input", empty}, "no sentences"},
		{"missing weights", []string{"--weights", filepath.Join(dir, "none.safetensors"), "--input", input}, "none.safetensors"},
		{"bad weights", []string{"--weights", bad, "--input", input}, "bad.safetensors"},
		{"unknown backend", []string{"--weights", w, "--input", input, "--backends", "cpu,tpu"}, `unknown backend "tpu"`},
		{"repeated backend", []string{"--weights", w, "--input", input, "--backends", "cpu,cpu"}, `"cpu" named twice`},
		{"no backend", []string{"--weights", w, "--input", input, "--backends", ","}, "names no backend"},
		{"zero batch", []string{"--weights", w, "--input", input, "--batch", "0"}, "--batch must be >= 1 (got 0)"},
		{"zero runs", []string{"--weights", w, "--input", input, "--runs", "0"}, "--runs must be >= 1 (got 0)"},
		{"zero max words", []string{"--weights", w, "--input", input, "--gpu-max-words", "0"}, "--gpu-max-words must be >= 1 (got 0)"},
		{"positional", []string{"--input", input, "extra"}, "no positional arguments"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, stderr, status := runCmd(append([]string{"bench", "score"}, c.args...)...)
			if status != 2 {
				t.Errorf("status %d, want 2 (stdout %q)", status, out)
			}
			if !strings.HasPrefix(stderr, "discspan bench: ") || !strings.Contains(stderr, c.want) {
				t.Errorf("stderr %q, want an error naming %q", stderr, c.want)
			}
			if strings.Contains(out, "| cpu |") {
				t.Errorf("a table row despite the error:\n%s", out)
			}
		})
	}
}

func TestBenchScoreHelpers(t *testing.T) {
	got, err := parseScoreBackends(" WebGPU-f16, webgpu ,cpu")
	if err != nil || strings.Join(got, ",") != "cpu,webgpu-f16,webgpu" {
		t.Errorf("parseScoreBackends = %q, %v; want cpu first, then the order given", got, err)
	}
}
