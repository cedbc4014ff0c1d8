package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/network"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discspan/discspan/weights"
)

func dataPath(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join("..", "..", "..", "shared", "data", "alpino-cdb", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("treebank data not found at %s (../shared/data beside the repository): %v", p, err)
	}
	return p
}

// runCmd runs the command line and returns stdout, stderr and the status.
func runCmd(args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	status := run(args, &out, &errb)
	return out.String(), errb.String(), status
}

// wantRun runs the command line and checks its status and that want is
// in its standard output (status 0) or standard error (any other).
func wantRun(t *testing.T, args []string, status int, want string) {
	t.Helper()
	out, stderr, got := runCmd(args...)
	where := stderr
	if status == 0 {
		where = out
	}
	if got != status || !strings.Contains(where, want) {
		t.Errorf("%q: status %d, stdout %.300q, stderr %q; want %d and %q", args, got, out, stderr, status, want)
	}
}

// scoreJSON writes a score file where the best n4 tree over 3 words is a
// discontinuous VP over words 0 and 2 inside an S over everything.
func scoreJSON(t *testing.T) string {
	t.Helper()
	n, labels := 3, []string{"S", "VP"}
	cube := func(fill float64) [][][]float64 {
		c := make([][][]float64, n)
		for x := range c {
			c[x] = make([][]float64, n)
			for y := range c[x] {
				c[x][y] = []float64{fill, fill}
			}
		}
		return c
	}
	cont, disc, gap := cube(-1), cube(-1), cube(-1)
	cont[0][2][0] = 2  // S over [0,3)
	disc[0][2][1] = 1  // VP outer extent 0..2
	gap[1][1][1] = 0.5 // VP gap word 1
	data, err := json.Marshal(map[string]any{"words": []string{"is", "John", "rich"}, "labels": labels, "cont": cont, "disc": disc, "gap": gap})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "scores.json")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDecodeCommand(t *testing.T) {
	file := scoreJSON(t)
	for _, v := range []string{"n3", "n4", "n6"} {
		out, stderr, status := runCmd("decode", "--variant", v, "--scores", file)
		if status != 0 {
			t.Fatalf("%s: status %d: %s", v, status, stderr)
		}
		var got decodeOutput
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s: output is not JSON: %v\n%s", v, err, out)
		}
		if got.Variant != v || got.Score != 3.5 {
			t.Errorf("%s: variant %q score %v, want %s 3.5", v, got.Variant, got.Score, v)
		}
		// Without tags the preterminals are written "--".
		want := `(ROOT (S (VP (-- 0=is) (-- 2=rich)) (-- 1=John)))`
		if got.Tree != want {
			t.Errorf("%s: tree %s, want %s", v, got.Tree, want)
		}
		if len(got.Constituents) != 2 {
			t.Errorf("%s: constituents %+v, want S and VP", v, got.Constituents)
		}
	}
	// The continuous decoder cannot build the VP.
	out, _, _ := runCmd("decode", "--variant", "continuous", "--scores", file)
	if !strings.Contains(out, `"score":2`) {
		t.Errorf("continuous: %s", out)
	}
}

func TestEvalCommand(t *testing.T) {
	gold, pred := dataPath(t, "dev.export"), dataPath(t, "dev.punctmoved.discbracket")
	out, stderr, status := runCmd("eval", "--json", gold, pred)
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	var res map[string]map[string]float64
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{"all", "le40"} {
		for _, key := range []string{"recall", "precision", "f1", "disc_recall", "disc_precision", "disc_f1", "exact"} {
			if res[part][key] != 100 {
				t.Errorf("%s.%s = %v, want 100 (same trees)", part, key, res[part][key])
			}
		}
		if res[part]["gold_brackets"] == 0 || res[part]["gold_brackets"] != res[part]["cand_brackets"] {
			t.Errorf("%s brackets: %v", part, res[part])
		}
	}
	text, _, status := runCmd("eval", gold, pred)
	if status != 0 || !strings.Contains(text, "labeled f-measure") {
		t.Errorf("text summary: status %d\n%s", status, text)
	}
}

func TestCoverageCommand(t *testing.T) {
	file := dataPath(t, "dev.punctmoved.discbracket")
	out, stderr, status := runCmd("coverage", "--json", "--variant", "continuous,n3", file)
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one JSON line per variant, got:\n%s", out)
	}
	var cont, n3 coverageJSON
	if err := json.Unmarshal([]byte(lines[0]), &cont); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &n3); err != nil {
		t.Fatal(err)
	}
	if cont.BDEq2 != 0 || n3.BDEq2 <= 50 || n3.All <= cont.All || n3.Counts.All.Total != cont.Counts.All.Total {
		t.Errorf("continuous %+v, n3 %+v", cont, n3)
	}
}

func TestConvertCommand(t *testing.T) {
	in := dataPath(t, "dev.export")
	dir := t.TempDir()
	mid, back := filepath.Join(dir, "dev.discbracket"), filepath.Join(dir, "back.export")
	stdout, stderr, status := runCmd("convert", in, mid)
	if status != 0 {
		t.Fatalf("export -> discbracket: %s", stderr)
	}
	// The summary goes to standard error, so that OUT may be /dev/stdout.
	trees, err := treebank.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("wrote %d trees to %s\n", len(trees), mid); stdout != "" || !strings.Contains(stderr, want) {
		t.Errorf("convert printed %q on standard output and %q on standard error", stdout, stderr)
	}
	// --format gives the format of a file without extension (as /dev/stdout).
	plain := filepath.Join(dir, "plain")
	if _, stderr, status := runCmd("convert", "--format", "export", mid, plain); status != 0 {
		t.Fatalf("discbracket -> export without extension: %s", stderr)
	}
	data, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(back, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, status := runCmd("eval", "--json", in, back)
	if status != 0 || !strings.Contains(out, `"f1":100`) {
		t.Errorf("round trip through discbracket changed the trees: %s %s", out, stderr)
	}
}

// TestConvertStreamsSafely converts a treebank with a malformed tree in
// its middle: the error names the file and line, and the output file that
// was there stays as it was (the trees before the error are written as
// they are read, so only a complete conversion may replace it). A file
// converted onto itself is replaced by the converted trees.
func TestConvertStreamsSafely(t *testing.T) {
	good, err := os.ReadFile(dataPath(t, "dev.discbracket"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(good), "\n")
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.discbracket")
	data := strings.Join(lines[:300], "") + "(S (NP 0=a) 1=b\n" + strings.Join(lines[300:], "")
	if err := os.WriteFile(broken, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.xml")
	if err := os.WriteFile(out, []byte("kept"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, status := runCmd("convert", broken, out)
	if status == 0 || !strings.Contains(stderr, "broken.discbracket:301") {
		t.Errorf("status %d, stderr %q: want a failure naming broken.discbracket:301", status, stderr)
	}
	if got, _ := os.ReadFile(out); string(got) != "kept" {
		t.Errorf("the output file was changed by a failed conversion: %.60q", got)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*out*")); len(left) != 1 {
		t.Errorf("files left beside the output: %v", left)
	}

	// An OUT that cannot be written is refused before IN is read.
	for _, bad := range []string{filepath.Join(dir, "missing", "out.export"), dir + string(filepath.Separator)} {
		_, stderr, status := runCmd("convert", "--format", "export", broken, bad)
		if status != 2 || strings.Contains(stderr, "broken.discbracket") {
			t.Errorf("OUT %s: status %d, %q; want status 2 about OUT, before IN's error", bad, status, stderr)
		}
	}

	self := filepath.Join(dir, "self.export")
	if _, stderr, status := runCmd("convert", dataPath(t, "dev.discbracket"), self); status != 0 {
		t.Fatal(stderr)
	}
	want, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if _, stderr, status := runCmd("convert", self, self); status != 0 {
		t.Fatalf("converting a file onto itself: %s", stderr)
	}
	if got, _ := os.ReadFile(self); !bytes.Equal(got, want) {
		t.Errorf("an export file converted onto itself changed: %d bytes, want %d", len(got), len(want))
	}
}

// TestEvalErrors checks what eval, which reads gold and candidate side by
// side, reports when they do not pair up: both lengths when one file is
// shorter, and the file and line of a malformed tree, with the count of
// further errors in its file.
func TestEvalErrors(t *testing.T) {
	good, err := os.ReadFile(dataPath(t, "dev.discbracket"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(good), "\n"), "\n")
	dir := t.TempDir()
	file := func(name string, ls ...string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(ls, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const bad = "(S (NP 0=a) 1=b\n"
	whole := file("whole.discbracket", lines...)
	short := file("short.discbracket", lines[:100]...)
	spaced := file("spaced.discbracket", strings.Join(lines, "\n"))
	broken := file("broken.discbracket", append(append(append([]string{}, lines[:300]...), bad), lines[300:]...)...)
	twice := file("twice.discbracket", append(append(append(append([]string{}, lines[:10]...), bad), lines[10:20]...), bad)...)
	for _, tc := range []struct {
		name, gold, cand, want string
	}{
		// A candidate of gold's first lines pairs by line (see
		// TestEvalPairsDiscbracketByLine); lines that are not gold's do not.
		{"candidate shorter", spaced, short, "spaced.discbracket has 714 sentences, candidate " + short + " 100, and they cannot be paired by line: candidate sentence 2 is on line 2, where gold has none"},
		{"gold shorter", short, whole, "short.discbracket has 100 sentences, candidate " + whole + " 714"},
		{"malformed candidate", whole, broken, "broken.discbracket:301:13: word \"1=b\""},
		{"malformed gold", broken, whole, "broken.discbracket:301:13"},
		{"two malformed trees", whole, twice, "twice.discbracket:11:13: word \"1=b\" next to bracketed constituents in (S (and 1 more error)"},
		{"malformed tree in the longer rest", short, broken, "broken.discbracket:301:13"},
		// As when both files were read whole first: the counts before a
		// pair that differs, gold's parse errors before the candidate's.
		{"extra sentence at the start", short, file("shifted.discbracket", append([]string{lines[200]}, lines[:100]...)...), "short.discbracket has 100 sentences, candidate " + filepath.Join(dir, "shifted.discbracket") + " 101"},
		{"both malformed", broken, twice, "broken.discbracket:301:13"},
		// A pair that differs names both files and lines.
		{"sentences out of order", short, file("swapped.discbracket", append([]string{lines[1], lines[0]}, lines[2:100]...)...), "short.discbracket:1 and " + filepath.Join(dir, "swapped.discbracket") + ":1: eval: sentence 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, status := runCmd("eval", tc.gold, tc.cand)
			if status == 0 || !strings.Contains(stderr, tc.want) {
				t.Errorf("status %d, stderr %q; want %q", status, stderr, tc.want)
			}
		})
	}
}

// TestConvertMatchesShippedFiles checks that converting dev.export gives
// the shipped discbracket files byte for byte (parentheses as -LRB- and
// -RRB-), with and without --reattach-punct, and that --disco-parens
// writes #LRB# instead.
func TestConvertMatchesShippedFiles(t *testing.T) {
	in := dataPath(t, "dev.export")
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		flags []string
		want  string // the shipped file, or "" for none
		has   string // a string the output holds
	}{
		{name: "plain", want: "dev.discbracket", has: "=-LRB-)"},
		{name: "reattach-punct", flags: []string{"--reattach-punct"}, want: "dev.punctmoved.discbracket", has: "=-LRB-)"},
		{name: "disco-parens", flags: []string{"--disco-parens"}, has: "=#LRB#)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, tc.name+".discbracket")
			if _, stderr, status := runCmd(append(append([]string{"convert"}, tc.flags...), in, out)...); status != 0 {
				t.Fatalf("convert: %s", stderr)
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(got), tc.has) {
				t.Errorf("no %q in the output", tc.has)
			}
			if tc.want == "" {
				return
			}
			want, err := os.ReadFile(dataPath(t, tc.want))
			if err != nil {
				t.Fatal(err)
			}
			if gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n"); !slices.Equal(gl, wl) {
				for i := range min(len(gl), len(wl)) {
					if gl[i] != wl[i] {
						t.Fatalf("line %d differs from %s:\n got %s\nwant %s", i+1, tc.want, gl[i], wl[i])
					}
				}
				t.Fatalf("%d lines, %s has %d", len(gl), tc.want, len(wl))
			}
		})
	}
}

func TestBenchCommand(t *testing.T) {
	out, stderr, status := runCmd("bench", "decode", "--json", "--variant", "n4", "--n", "12", "--labels", "5", "--runs", "2")
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"variant", "n", "labels", "seconds_per_sentence", "peak_bytes"} {
		if _, ok := res[key]; !ok {
			t.Errorf("missing %q in %s", key, out)
		}
	}
	if res["seconds_per_sentence"].(float64) <= 0 {
		t.Errorf("seconds_per_sentence %v", res["seconds_per_sentence"])
	}
}

// TestErrors: bad arguments and bad input give exit status 2 and one line
// on stderr naming the problem.
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	badJSON := filepath.Join(dir, "bad.json")
	os.WriteFile(badJSON, []byte("{\n \"words\": [\"a\",\n  ]\n}"), 0o644)
	shortJSON := filepath.Join(dir, "short.json")
	os.WriteFile(shortJSON, []byte(`{"words":["a","b"],"labels":["X"],"cont":[[[1],[1]]],"disc":[],"gap":[]}`), 0o644)
	badTree := filepath.Join(dir, "bad.discbracket")
	os.WriteFile(badTree, []byte("(ROOT (S (NN 0=a) (NN 1=b))\n"), 0o644)
	emptyTree := filepath.Join(dir, "empty.discbracket")
	os.WriteFile(emptyTree, nil, 0o644)
	goodTree := filepath.Join(dir, "good.discbracket")
	os.WriteFile(goodTree, []byte("(ROOT (S (NN 0=a) (NN 1=b)))\n"), 0o644)
	shipped := filepath.Join("..", "..", "weights", "default.safetensors")
	whole, err := os.ReadFile(shipped)
	if err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(dir, "truncated.safetensors")
	os.WriteFile(truncated, whole[:len(whole)/2], 0o644)
	model := filepath.Join(dir, "model.safetensors")
	os.WriteFile(model, whole, 0o644)
	treeLink := filepath.Join(dir, "link.export")
	if err := os.Symlink(goodTree, treeLink); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no command", nil, ""},
		{"unknown command", []string{"frobnicate"}, "unknown command"},
		{"unknown flag", []string{"decode", "--nope"}, "flag provided but not defined"},
		{"bad flag value", []string{"parse", "--max-words", "abc"}, `invalid value "abc" for flag -max-words`},
		{"missing scores", []string{"decode"}, "--scores"},
		{"negative chart budget", []string{"decode", "--scores", shortJSON, "--max-mb", "-1"}, "--max-mb -1: want a chart budget of 1 to"},
		{"no chart budget", []string{"decode", "--scores", shortJSON, "--max-mb", "0"}, "--max-mb 0: want"},
		{"bad variant", []string{"decode", "--variant", "n7", "--scores", badJSON}, "unknown variant"},
		{"missing file", []string{"decode", "--scores", filepath.Join(dir, "none.json")}, "no such file"},
		{"JSON syntax", []string{"decode", "--scores", badJSON}, "bad.json:3:"},
		{"wrong shape", []string{"decode", "--scores", shortJSON}, `"cont" has 1 rows`},
		{"eval one file", []string{"eval", badTree}, "want GOLD and PRED"},
		{"bad treebank", []string{"eval", badTree, badTree}, "bad.discbracket:1"},
		{"coverage bad variant", []string{"coverage", "--variant", "n9", badTree}, "unknown variant"},
		{"convert bad extension", []string{"convert", badTree, filepath.Join(dir, "x.txt")}, ".txt"},
		{"convert to PTB", []string{"convert", goodTree, filepath.Join(dir, "x.mrg")}, "cannot write format ptb"},
		{"convert unknown format", []string{"convert", "--format", "xml", goodTree, filepath.Join(dir, "x")}, `--format "xml": want export, discbracket or tigerxml`},
		{"bench without decode", []string{"bench"}, "bench decode"},
		{"negative workers", []string{"parse", "--workers", "-5", "--input", badTree}, "--workers -5"},
		{"max-words 0", []string{"parse", "--max-words", "0", "--input", badTree}, "--max-words 0: want a number of words, or -1"},
		{"max-words below -1", []string{"coverage", "--max-words", "-7", badTree}, "--max-words -7"},
		{"parse onto its input", []string{"parse", "--input", badTree, "--output", filepath.Join(dir, ".", "bad.discbracket")}, "is the --input: parsing would overwrite it"},
		{"parse onto its weights", []string{"parse", "--weights", shipped + "," + model, "--input", goodTree, "--output", model}, "--output " + model + " is one of the --weights"},
		{"parse output named as weights", []string{"parse", "--input", goodTree, "--output", filepath.Join(dir, "out.safetensors")}, "is named as a weights file"},
		{"convert onto its input", []string{"convert", goodTree, treeLink}, "OUT " + treeLink + " is IN, in another format (export)"},
		{"convert format against the name", []string{"convert", "--format", "export", goodTree, filepath.Join(dir, "x.discbracket")}, "is named as discbracket, not export (--format)"},
		{"ensemble onto a model", []string{"ensemble", "--out", model, shipped, model}, "--out " + model + " is one of the models"},
		{"ensemble onto its dev data", []string{"ensemble", "--out", goodTree, "--dev", goodTree, shipped}, "is the --dev treebank"},
		{"ensemble with an empty dev treebank", []string{"ensemble", "--out", filepath.Join(dir, "e.safetensors"), "--dev", emptyTree, shipped}, "--dev " + emptyTree + ": no trees"},
		{"choose 0", []string{"ensemble", "--choose", "0", "--dev", goodTree, shipped, shipped}, "--choose 0: want a number of models"},
		{"negative choose", []string{"ensemble", "--choose", "-1", "--dev", badTree, "a", "b"}, "--choose -1"},
		{"choose more than given", []string{"ensemble", "--choose", "5", "--dev", goodTree, shipped, shipped}, "--choose 5 of 4 models"},
		{"calibrate unknown variant", []string{"ensemble", "--out", filepath.Join(dir, "e.safetensors"), "--calibrate", "n9", "--dev", badTree, shipped}, "--calibrate: unknown variant"},
		{"negative test F1", []string{"ensemble", "--out", filepath.Join(dir, "e.safetensors"), "--test-f1", "-5", shipped}, "--test-f1 -5"},
		{"train output is its dev data", []string{"train", "--train", badTree, "--dev", badTree, "--out", badTree}, "a treebank's name"}, // train refuses it too (train.TestOutputsChecked: "is also the training data")
		{"serve a missing weights file", []string{"serve", "--addr", "127.0.0.1:0", "--weights", filepath.Join(dir, "none.safetensors")}, "none.safetensors: no such file"},
		{"serve a truncated weights file", []string{"serve", "--addr", "127.0.0.1:0", "--weights", truncated}, "truncated.safetensors"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, status := runCmd(c.args...)
			if status != 2 {
				t.Errorf("status %d, want 2 (stderr %q)", status, stderr)
			}
			// The usage goes to standard output only on --help: on an error
			// it would end up in the output a user redirected.
			if stdout != "" && c.name != "no command" {
				t.Errorf("standard output %q, want nothing", stdout)
			}
			if strings.Count(strings.TrimRight(stderr, "\n"), "\n") > 0 {
				t.Errorf("error is not one line: %q", stderr)
			}
			if !strings.Contains(stderr, c.want) {
				t.Errorf("stderr %q does not mention %q", stderr, c.want)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	for _, cmd := range []string{"decode", "eval", "coverage", "convert", "bench", "parse", "train"} {
		for _, args := range [][]string{{cmd, "--help"}, {"help", cmd}} {
			out, _, status := runCmd(args...)
			if status != 0 || strings.Count(out, "Usage: discspan "+cmd) != 1 {
				t.Errorf("%v: status %d\n%s", args, status, out)
			}
		}
	}
	// No command at all is a mistake: a one-line error.
	if out, stderr, status := runCmd(); status != 2 || out != "" || !strings.Contains(stderr, "no command given") {
		t.Errorf("no arguments: status %d, stdout %q, stderr %q", status, out, stderr)
	}
	if out, _, status := runCmd("help"); status != 0 || !strings.Contains(out, "Commands:") {
		t.Errorf("help: status %d, stdout %q", status, out)
	}
}

func TestParseCommand(t *testing.T) {
	dev := dataPath(t, "dev.punctmoved.discbracket")
	data, err := os.ReadFile(dev)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gold := filepath.Join(dir, "gold.discbracket")
	lines := strings.SplitAfter(string(data), "\n")[:12]
	if err := os.WriteFile(gold, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	pred := filepath.Join(dir, "pred.discbracket")
	// The shipped default model, embedded, on a treebank's words.
	if _, stderr, status := runCmd("parse", "--input", gold, "--output", pred); status != 0 {
		t.Fatalf("parse: %s", stderr)
	}
	out, stderr, status := runCmd("eval", "--json", gold, pred)
	if status != 0 {
		t.Fatalf("eval of the parses: %s", stderr)
	}
	var res map[string]map[string]float64
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if f1 := res["all"]["f1"]; f1 < 30 {
		t.Errorf("default model F1 %.2f on 12 dev sentences: the shipped model is not working", f1)
	}
	// Raw text, one sentence a line, tokenized on the way in; export output.
	text := filepath.Join(dir, "in.txt")
	os.WriteFile(text, []byte("Het bulletin sluit aan op de brief.\n\nDe bisschoppen gaven hem in januari uit.\n"), 0o644)
	out, stderr, status = runCmd("parse", "--input", text, "--format", "export", "--variant", "n4")
	if status != 0 {
		t.Fatalf("parse text: %s", stderr)
	}
	if got := strings.Count(out, "#BOS"); got != 2 {
		t.Errorf("want 2 sentences in export output, got %d:\n%s", got, out)
	}
	// Ids are input line numbers: the second sentence is on line 3.
	if !strings.Contains(out, "brief") || !strings.Contains(out, "#EOS 3") {
		t.Errorf("export output:\n%s", out)
	}
	// Without --format, --output's extension names the format.
	for _, name := range []string{"p.export", "p.xml"} {
		path := filepath.Join(dir, name)
		if _, stderr, status := runCmd("parse", "--input", text, "--output", path); status != 0 {
			t.Fatalf("parse to %s: %s", name, stderr)
		}
		trees, err := treebank.ReadFile(path)
		if err != nil || len(trees) != 2 {
			t.Errorf("%s: read back %d trees, %v; want 2 trees", name, len(trees), err)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"parse", "--format", "xml", "--input", text}, "want discbracket, export or tigerxml"},
		{[]string{"parse", "--format", "discbracket", "--input", text, "--output", filepath.Join(dir, "p.export")}, "p.export is named as export, not discbracket"},
		{[]string{"parse", "--input", text, "--output", filepath.Join(dir, "p.mrg")}, "cannot write format ptb"},
		{[]string{"parse", "--weights", filepath.Join(dir, "none.safetensors"), "--input", text}, "no such file"},
		{[]string{"parse", "--weights", text, "--input", text}, "weights"},
		{[]string{"parse", "--weights", " , ", "--input", text}, `--weights " , " names no file`},
		{[]string{"parse", "--weights", filepath.Join(dir, "none.safetensors") + ",", "--input", text}, "none.safetensors: no such file"},
	} {
		_, stderr, status := runCmd(c.args...)
		if status != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: status %d, stderr %q, want %q", c.args, status, stderr, c.want)
		}
	}
}

// smallTrainingSetup writes the first 15 dev trees and a very small
// network configuration to a temporary directory and returns the
// directory and the two files.
func smallTrainingSetup(t *testing.T) (dir, small, cfg string) {
	t.Helper()
	data, err := os.ReadFile(dataPath(t, "dev.punctmoved.discbracket"))
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	small = filepath.Join(dir, "small.discbracket")
	cfg = filepath.Join(dir, "cfg.json")
	for path, body := range map[string]string{
		small: strings.Join(strings.SplitAfter(string(data), "\n")[:15], ""),
		cfg:   `{"word_dim": 8, "char_dim": 4, "char_hidden": 6, "lstm1_hidden": 10, "lstm2_hidden": 12, "label_mlp": 7, "span_mlp": 5}`,
	} {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, small, cfg
}

// TestTrainCommandConfig trains a very small network given by --config for
// one epoch and checks the weights file records those sizes.
func TestTrainCommandConfig(t *testing.T) {
	dir, small, cfg := smallTrainingSetup(t)
	out := filepath.Join(dir, "m.safetensors")
	if _, stderr, status := runCmd("train", "--train", small, "--dev", small, "--out", out, "--epochs", "1", "--config", cfg, "--workers", "1"); status != 0 {
		t.Fatalf("train: %s", stderr)
	}
	f, err := weights.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if c := f.Meta.Config; c.LSTM1Hidden != 10 || c.LSTM2Hidden != 12 || c.LabelMLP != 7 || c.SpanMLP != 5 {
		t.Errorf("config not applied: %+v", c)
	}
	// --config starts from the preset named by --preset: a size it leaves
	// out is the preset's (small: label MLP 128).
	partial := filepath.Join(dir, "partial.json")
	os.WriteFile(partial, []byte(`{"word_dim": 8, "char_dim": 4, "char_hidden": 6, "lstm1_hidden": 10, "lstm2_hidden": 12, "span_mlp": 5}`), 0o644)
	outSmall := filepath.Join(dir, "small.safetensors")
	if _, stderr, status := runCmd("train", "--train", small, "--dev", small, "--out", outSmall, "--epochs", "1", "--preset", "small", "--config", partial, "--workers", "1"); status != 0 {
		t.Fatalf("train --preset small: %s", stderr)
	}
	if f, err := weights.ReadFile(outSmall); err != nil {
		t.Fatal(err)
	} else if c := f.Meta.Config; c.LabelMLP != network.Small().LabelMLP || c.LSTM1Hidden != 10 {
		t.Errorf("--preset small with a partial config: %+v, want label MLP %d and LSTM1 10", c, network.Small().LabelMLP)
	}
	if _, stderr, status := runCmd("train", "--train", small, "--dev", small, "--out", filepath.Join(dir, "h.safetensors"), "--preset", "huge"); status != 2 || !strings.Contains(stderr, "tiny, small, paper") {
		t.Errorf("--preset huge: status %d, %q; want a usage error naming the presets", status, stderr)
	}
	// A bad configuration is refused before anything is read or
	// allocated, naming the file and what is wrong; nothing is written.
	for name, tc := range map[string]struct{ body, want string }{
		"bad.json":      {`{"lstm1_hidden": "x"}`, "lstm1_hidden"},
		"misspelt.json": {`{"lstm1_hidden": 8, "word_dimm": 4}`, `unknown field "word_dimm"`},
		"huge.json":     {`{"word_dim": 100000000}`, "word_dim = 100000000 is implausibly large"},
		"chars.json":    {`{"max_chars": 70000}`, "max_chars = 70000 is implausibly large"},
		"params.json":   {`{"word_dim": 60000, "lstm1_hidden": 60000}`, "parameters"},
		"trailing.json": {`{"char_dim": 48} {"word_dim": 1}`, "text after the configuration"},
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(tc.body), 0o644)
		out := filepath.Join(dir, "n.safetensors")
		_, stderr, status := runCmd("train", "--train", small, "--dev", small, "--out", out, "--config", p)
		if status != 2 || !strings.Contains(stderr, name) || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "goroutine") {
			t.Errorf("--config %s: status %d, %q; want status 2 naming the file and %q", name, status, stderr, tc.want)
		}
		if left, _ := filepath.Glob(filepath.Join(dir, "*n.safetensors*")); len(left) > 0 {
			t.Errorf("--config %s: left %v", name, left)
		}
	}
	// --adam replaces the optimiser settings: the log's learning rate
	// follows the given schedule.
	adam := filepath.Join(dir, "adam.json")
	os.WriteFile(adam, []byte(`{"lr": 0.02, "decay": 0.5, "decay_every": 1}`), 0o644)
	out2 := filepath.Join(dir, "a.safetensors")
	if _, stderr, status := runCmd("train", "--train", small, "--dev", small, "--out", out2, "--epochs", "1", "--config", cfg, "--adam", adam, "--workers", "1"); status != 0 {
		t.Fatalf("train --adam: %s", stderr)
	}
	logData, err := os.ReadFile(out2 + ".log.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var entry struct {
		Updates int     `json:"updates"`
		LR      float64 `json:"lr"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(string(logData), "\n", 2)[0]), &entry); err != nil {
		t.Fatal(err)
	}
	want := network.AdamConfig{LR: 0.02, Decay: 0.5, DecayEvery: 1}.LearningRate(entry.Updates)
	if entry.Updates < 1 || math.Abs(entry.LR-want) > 1e-12 {
		t.Errorf("--adam: log says lr %g after %d updates, want %g", entry.LR, entry.Updates, want)
	}
	for name, body := range map[string]string{
		"unknown.json": `{"learning_rate": 0.1}`,
		"range.json":   `{"lr": -1}`,
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		if _, stderr, status := runCmd("train", "--train", small, "--dev", small, "--out", filepath.Join(dir, "n.safetensors"), "--adam", p); status != 2 || !strings.Contains(stderr, name) {
			t.Errorf("bad --adam %s: status %d, %q", name, status, stderr)
		}
	}
}

// TestTrainCommandProfile: --cpuprofile writes a profile of a run that
// worked, and of one that failed after training (it diverged), and touches
// no file when the run is refused, be it one of the run's inputs or
// another file.
func TestTrainCommandProfile(t *testing.T) {
	dir, small, cfg := smallTrainingSetup(t)
	prof := filepath.Join(dir, "cpu.prof")
	if _, stderr, status := runCmd("train", "--train", small, "--dev", small, "--out", filepath.Join(dir, "m.safetensors"), "--epochs", "1", "--config", cfg, "--workers", "1", "--cpuprofile", prof); status != 0 {
		t.Fatalf("train --cpuprofile: %s", stderr)
	}
	if b, err := os.ReadFile(prof); err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("the profile: %d bytes (%v); want a gzipped pprof file", len(b), err)
	}
	high := filepath.Join(dir, "high.json")
	if err := os.WriteFile(high, []byte(`{"lr": 1e15}`), 0o644); err != nil {
		t.Fatal(err)
	}
	failed := filepath.Join(dir, "failed.prof")
	if _, stderr, status := runCmd("train", "--train", small, "--dev", small, "--out", filepath.Join(dir, "d.safetensors"), "--epochs", "2", "--config", cfg, "--adam", high, "--workers", "1", "--cpuprofile", failed); status == 0 || !strings.Contains(stderr, "diverged") {
		t.Errorf("train with lr 1e15: status %d, %q; want a failure saying the training diverged", status, stderr)
	}
	if b, err := os.ReadFile(failed); err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("the profile of the failed run: %d bytes (%v); want a gzipped pprof file", len(b), err)
	}
	keep := filepath.Join(dir, "keep.txt")
	if err := os.WriteFile(keep, []byte("not a profile"), 0o644); err != nil {
		t.Fatal(err)
	}
	treebank, err := os.ReadFile(small)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, profile, want string
		extra               []string
	}{
		{"the training data", small, "the CPU profile " + small + " is also the training data", nil},
		{"the configuration", cfg, "is also the network configuration", nil},
		{"a file, the run refused", keep, "missing.safetensors", []string{"--init", filepath.Join(dir, "missing.safetensors")}},
	} {
		args := append([]string{"train", "--train", small, "--dev", small, "--out", filepath.Join(dir, "n.safetensors"), "--epochs", "1", "--config", cfg, "--cpuprofile", c.profile}, c.extra...)
		if _, stderr, status := runCmd(args...); status != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("--cpuprofile %s: status %d, %q; want 2 and %q", c.name, status, stderr, c.want)
		}
	}
	for path, want := range map[string]string{small: string(treebank), keep: "not a profile"} {
		if b, err := os.ReadFile(path); err != nil || string(b) != want {
			t.Errorf("%s changed (%d bytes, %v)", path, len(b), err)
		}
	}
}

// TestTrainCommandTeacher distils a small model into another: the log
// names the teacher, its dev F1, its weight and temperature and its soft cells; a missing teacher is an error
// naming the file.
func TestTrainCommandTeacher(t *testing.T) {
	dir, small, cfg := smallTrainingSetup(t)
	teacher := filepath.Join(dir, "teacher.safetensors")
	if _, stderr, status := runCmd("train", "--train", small, "--dev", small, "--out", teacher, "--epochs", "2", "--config", cfg, "--workers", "1"); status != 0 {
		t.Fatalf("train: %s", stderr)
	}
	stdout, stderr, status := runCmd("train", "--train", small, "--dev", small, "--out", filepath.Join(dir, "s.safetensors"), "--epochs", "1",
		"--config", cfg, "--workers", "1", "--teacher", teacher, "--teacher-weight", "0.7", "--teacher-temperature", "2.5", "--seed", "2")
	if status != 0 {
		t.Fatalf("train --teacher: %s", stderr)
	}
	tf, err := weights.ReadMeta(teacher)
	if err != nil {
		t.Fatal(err)
	}
	// The teacher's dev F1 is the one its file records (same dev data).
	if want := fmt.Sprintf("teacher: %s (1 model(s), dev F1 %.2f), weight 0.7, temperature 2.5: ", teacher, tf.Meta.DevF1); !strings.Contains(stdout, want) {
		t.Errorf("stdout lacks %q:\n%s", want, stdout)
	}
	missing := filepath.Join(dir, "none.safetensors")
	_, stderr, status = runCmd("train", "--train", small, "--dev", small, "--out", filepath.Join(dir, "m.safetensors"), "--epochs", "1",
		"--config", cfg, "--teacher", missing)
	if status == 0 || !strings.Contains(stderr, "none.safetensors") {
		t.Errorf("missing teacher: status %d, stderr %q", status, stderr)
	}
	// --hold-out k/K: the weights file says which fold was left out.
	held := filepath.Join(dir, "h.safetensors")
	if _, stderr, status := runCmd("train", "--train", small, "--dev", small, "--out", held, "--epochs", "1", "--config", cfg, "--workers", "1", "--hold-out", "2/3"); status != 0 {
		t.Fatalf("train --hold-out: %s", stderr)
	}
	f, err := weights.ReadFile(held)
	if err != nil {
		t.Fatal(err)
	}
	if want := "small.discbracket without fold 2/3"; f.Meta.TrainingData != want {
		t.Errorf("training data %q, want %q", f.Meta.TrainingData, want)
	}
	for _, bad := range []string{"3/2", "1/1", "x", "0/2"} {
		_, stderr, status := runCmd("train", "--train", small, "--dev", small, "--out", filepath.Join(dir, "b.safetensors"), "--hold-out", bad)
		if status != 2 || !strings.Contains(stderr, "--hold-out") {
			t.Errorf("--hold-out %s: status %d, stderr %q", bad, status, stderr)
		}
	}
	// A fold that holds every sentence leaves nothing to train on.
	one := filepath.Join(dir, "one.discbracket")
	if err := os.WriteFile(one, []byte(strings.SplitAfter(string(readTestFile(t, small)), "\n")[0]), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, status := runCmd("train", "--train", one, "--dev", small, "--out", filepath.Join(dir, "o.safetensors"), "--epochs", "1", "--config", cfg, "--hold-out", "1/2"); status == 0 || !strings.Contains(stderr, "holding out fold 1 of 2 leaves no sentence to train on") {
		t.Errorf("--hold-out of the only sentence: status %d, stderr %q", status, stderr)
	}
	// --device cuda with --hinge is refused before anything is read.
	if _, stderr, status := runCmd("train", "--train", filepath.Join(dir, "missing.discbracket"), "--dev", small, "--out", filepath.Join(dir, "c.safetensors"), "--device", "cuda", "--hinge", "1"); status == 0 || !strings.Contains(stderr, "the hinge loss (--hinge) runs on the CPU only") {
		t.Errorf("--device cuda --hinge: status %d, stderr %q", status, stderr)
	}
}

// readTestFile returns a file's bytes or fails the test.
func readTestFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTrainMaxTime checks --max-time: a run past its limit stops as Ctrl-C
// stops it (the checkpoint written, exit status 0) and says it was the
// time limit; --resume then finishes the run. The limit (1 ns) has passed
// after the first batch on any machine; every run trains that one, so
// that runs resumed with the limit make progress.
func TestTrainMaxTime(t *testing.T) {
	dir, small, cfg := smallTrainingSetup(t)
	out := filepath.Join(dir, "m.safetensors")
	args := []string{"train", "--train", small, "--dev", small, "--out", out, "--epochs", "1", "--config", cfg, "--workers", "1", "--batch-words", "60"}
	stdout, stderr, status := runCmd(append(args, "--max-time", "1ns")...)
	if status != 0 || !strings.Contains(stdout, "stopped at the time limit (--max-time 1ns) after 0 epochs (1 updates); continue with --resume") {
		t.Fatalf("--max-time 1ns: status %d, output %q, %q", status, stdout, stderr)
	}
	stdout, stderr, status = runCmd(append(args, "--max-time", "1ns", "--resume")...)
	if status != 0 || !strings.Contains(stdout, "stopped at the time limit (--max-time 1ns) after 0 epochs (2 updates); continue with --resume") {
		t.Fatalf("--resume --max-time 1ns: status %d, output %q, %q", status, stdout, stderr)
	}
	if _, err := os.Stat(out + ".ckpt"); err != nil {
		t.Fatalf("no checkpoint after the time limit: %v", err)
	}
	stdout, stderr, status = runCmd(append(args, "--resume")...)
	if status != 0 || !strings.Contains(stdout, "done: 1 epochs") {
		t.Fatalf("--resume: status %d, output %q, %q", status, stdout, stderr)
	}
	if _, err := weights.ReadFile(out); err != nil {
		t.Errorf("the resumed run's output: %v", err)
	}
	if _, stderr, status := runCmd(append(args, "--max-time", "-1s")...); status != 2 || !strings.Contains(stderr, "--max-time must not be negative") {
		t.Errorf("--max-time -1s: status %d, %q", status, stderr)
	}
}

// fullWriter fails every write, as standard output on a full disk does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestStandardOutputLost: a command whose report cannot be written (a full
// disk) fails with status 2 and says so, whether or not it checks its own
// writes.
func TestStandardOutputLost(t *testing.T) {
	dir := t.TempDir()
	gold := filepath.Join(dir, "g.discbracket")
	if err := os.WriteFile(gold, []byte("(S (A 0=a) (B 1=b))\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"eval", gold, gold},
		{"eval", "--verbose", "--labels", gold, gold},
		{"eval", "--json", gold, gold},
		{"coverage", gold},
		{"bench", "decode", "--n", "6", "--runs", "1"},
		{"eval", "--help"},
	} {
		var stderr bytes.Buffer
		status := run(args, fullWriter{}, &stderr)
		if status != 2 || !strings.Contains(stderr.String(), "no space left on device") {
			t.Errorf("%v: status %d, %q; want 2 and the write error", args, status, stderr.String())
		}
	}
}

// TestDashIsStandardStream: "-" is standard input or output for parse
// and convert, as for eval, and never a file named "-"; convert refuses
// "-" where it cannot do without a file or a format.
func TestDashIsStandardStream(t *testing.T) {
	dir := t.TempDir()
	cmd := mainCommand("parse", "--input", "-", "--output", "-")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader("Ja .\n")
	out, err := cmd.Output()
	if err != nil || !strings.HasPrefix(string(out), "(ROOT") {
		t.Errorf("parse --input - --output -: %v, %q", err, out)
	}
	gold := dataPath(t, "dev.discbracket")
	stdout, stderr, status := runCmd("convert", "--format", "export", gold, "-")
	if status != 0 || strings.Count(stdout, "#BOS ") != 714 || !strings.Contains(stderr, "wrote 714 trees to -") {
		t.Errorf("convert --format export IN -: status %d, %d trees, %s", status, strings.Count(stdout, "#BOS "), stderr)
	}
	for _, args := range [][]string{{"convert", gold, "-"}, {"convert", "-", filepath.Join(dir, "o.export")}} {
		if _, stderr, status := runCmd(args...); status != 2 || !strings.Contains(stderr, "usage") {
			t.Errorf("%v: status %d, %q; want a usage error", args, status, stderr)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
		t.Errorf("files made: %v", left)
	}
}

// TestEvalPairsExportByID checks that eval pairs export sentences by their
// #BOS ids, as disco-dop does, when the candidate holds gold's sentences in
// another order or only some of them: the scores equal those of the same
// sentences paired in order, a note says so, and ids that cannot be paired
// (unknown, repeated) are refused with the id named.
func TestEvalPairsExportByID(t *testing.T) {
	raw, err := os.ReadFile(dataPath(t, "dev.export"))
	if err != nil {
		t.Fatal(err)
	}
	// The sentences, each from its #BOS line to its #EOS line.
	var header string
	var sents []string
	text := string(raw)
	first := strings.Index(text, "#BOS ")
	header, text = text[:first], text[first:]
	for text != "" {
		end := strings.Index(text, "#EOS")
		end += strings.Index(text[end:], "\n") + 1
		sents = append(sents, text[:end])
		text = strings.TrimLeft(text[end:], "\n")
	}
	if len(sents) < 100 {
		t.Fatalf("read %d sentences of dev.export", len(sents))
	}
	dir := t.TempDir()
	file := func(name string, ss ...string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(header+strings.Join(ss, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gold := file("gold.export", sents[:100]...)
	// The candidate's trees differ from gold's (every NP relabelled PP),
	// so that the scores are not all 100.
	parsed := make([]string, len(sents))
	for i, s := range sents {
		parsed[i] = strings.ReplaceAll(s, "\tNP\t", "\tPP\t")
	}
	subset := append(slices.Clone(parsed[60:100]), parsed[:20]...)
	inOrder := append(slices.Clone(sents[:20]), sents[60:100]...)
	parsedInOrder := append(slices.Clone(parsed[:20]), parsed[60:100]...)
	reversed := slices.Clone(parsed[:100])
	slices.Reverse(reversed)
	jsonOf := func(gold, cand string) (string, string) {
		t.Helper()
		out, stderr, status := runCmd("eval", "--json", gold, cand)
		if status != 0 {
			t.Fatalf("eval %s %s: status %d: %s", gold, cand, status, stderr)
		}
		return out, stderr
	}
	wantSubset, _ := jsonOf(file("gold-subset.export", inOrder...), file("cand-in-order.export", parsedInOrder...))
	if strings.Contains(wantSubset, `"f1":100,`) {
		t.Fatalf("the relabelled candidate scores 100: %s", wantSubset)
	}
	gotSubset, note := jsonOf(gold, file("cand-subset.export", subset...))
	if gotSubset != wantSubset {
		t.Errorf("a subset out of order scored\n%s, the same sentences in order\n%s", gotSubset, wantSubset)
	}
	if !strings.Contains(note, "holds 60 of the 100 sentences") {
		t.Errorf("no note on the subset: stderr %q", note)
	}
	wantAll, _ := jsonOf(gold, file("parsed.export", parsed[:100]...))
	gotAll, note := jsonOf(gold, file("reversed.export", reversed...))
	if gotAll != wantAll || !strings.Contains(note, "another order") {
		t.Errorf("reversed: %s (stderr %q), want %s", gotAll, note, wantAll)
	}
	if _, stderr, _ := runCmd("eval", gold, file("parsed.export", parsed[:100]...)); strings.Contains(stderr, "paired by id") {
		t.Errorf("a note for files in the same order: %q", stderr)
	}

	renamed := strings.ReplaceAll(strings.Replace(sents[100], "#BOS ", "#BOS x", 1), "#EOS ", "#EOS x")
	for _, tc := range []struct {
		name string
		cand []string
		want string
	}{
		{"unknown id", append(slices.Clone(sents[:10]), renamed), "cannot be paired by id: candidate sentence 11 has id"},
		{"repeated id", append(slices.Clone(sents[:10]), sents[3]), "candidate has more than one sentence with id"},
		// As many sentences as gold, some ids gold's and one not: no
		// pairing in order by chance.
		{"unknown id, as many sentences", append(slices.Clone(reversed[1:]), renamed), "cannot be paired by id: candidate sentence 100 has id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, status := runCmd("eval", gold, file(tc.name+".export", tc.cand...))
			if status == 0 || !strings.Contains(stderr, tc.want) {
				t.Errorf("status %d, stderr %q; want %q", status, stderr, tc.want)
			}
		})
	}
}

// TestEvalPairsDiscbracketByLine: discbracket sentences are keyed by their
// line, as disco-dop numbers them, so a candidate of gold's first lines, or
// one with a blank line for a sentence left out, scores the sentences it
// holds, exactly as the same pairs in files of their own, with a note;
// files with blank lines between trees in one of them only still pair in
// order.
func TestEvalPairsDiscbracketByLine(t *testing.T) {
	raw, err := os.ReadFile(dataPath(t, "dev.discbracket"))
	if err != nil {
		t.Fatal(err)
	}
	sents := strings.SplitAfter(strings.TrimSuffix(string(raw), "\n"), "\n")[:100]
	// The candidate's trees differ from gold's (every NP relabelled PP),
	// so that the scores are not all 100.
	parsed := make([]string, len(sents))
	for i, s := range sents {
		parsed[i] = strings.ReplaceAll(s, "(NP ", "(PP ")
	}
	dir := t.TempDir()
	file := func(name string, ls ...string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(ls, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	score := func(t *testing.T, gold, cand string) (string, string) {
		t.Helper()
		out, stderr, status := runCmd("eval", "--json", gold, cand)
		if status != 0 {
			t.Fatalf("eval %s %s: status %d: %s", gold, cand, status, stderr)
		}
		return out, stderr
	}
	gold := file("gold.discbracket", sents...)
	without := func(ls []string, i int) []string { return append(slices.Clone(ls[:i]), ls[i+1:]...) }
	blanked := slices.Clone(parsed)
	blanked[30] = "\n"
	for _, tc := range []struct {
		name               string
		cand               []string
		wantGold, wantCand []string // the pairs scored, in files of their own
		note               string
	}{
		{"first lines", parsed[:60], sents[:60], parsed[:60], "paired by line: "},
		{"a blank line for a sentence", blanked, without(sents, 30), without(parsed, 30), "holds 99 of the 100 sentences"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, _ := score(t, file(tc.name+"-gold.discbracket", tc.wantGold...), file(tc.name+"-cand.discbracket", tc.wantCand...))
			if strings.Contains(want, `"f1":100,`) {
				t.Fatalf("the relabelled candidate scores 100: %s", want)
			}
			got, note := score(t, gold, file(tc.name+".discbracket", tc.cand...))
			if got != want {
				t.Errorf("scored\n%s, the same pairs in files of their own\n%s", got, want)
			}
			if !strings.Contains(note, tc.note) {
				t.Errorf("stderr %q, want a note %q", note, tc.note)
			}
		})
	}
	// --strict refuses a candidate of some of gold's sentences.
	if _, stderr, status := runCmd("eval", "--strict", gold, file("first lines.discbracket", parsed[:60]...)); status == 0 || !strings.Contains(stderr, "holds 60 of the 100 sentences") {
		t.Errorf("--strict with 60 of 100 sentences: status %d, %q", status, stderr)
	}
	want, note := score(t, gold, file("parsed.discbracket", parsed...))
	if note != "" {
		t.Errorf("a note for files of the same lines: %q", note)
	}
	if got, _ := score(t, file("spaced.discbracket", strings.Join(sents, "\n")), file("parsed.discbracket", parsed...)); got != want {
		t.Errorf("gold with blank lines between trees scored\n%s, without\n%s", got, want)
	}
}

// TestTrainInitWithConfig: with --init and no --preset, a --config that
// changes only the dropout rates applies to the initial model's sizes
// (not the tiny preset's, which the sizes would not match), and the run
// fine-tunes the model with those rates.
func TestTrainInitWithConfig(t *testing.T) {
	dir, small, cfg := smallTrainingSetup(t)
	first := filepath.Join(dir, "first.safetensors")
	if _, stderr, status := runCmd("train", "--train", small, "--dev", small, "--out", first, "--epochs", "1", "--config", cfg, "--workers", "1"); status != 0 {
		t.Fatalf("train: %s", stderr)
	}
	drop := filepath.Join(dir, "drop.json")
	if err := os.WriteFile(drop, []byte(`{"drop_lstm": 0.5}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tuned := filepath.Join(dir, "tuned.safetensors")
	stdout, stderr, status := runCmd("train", "--train", small, "--dev", small, "--out", tuned, "--epochs", "1", "--init", first, "--config", drop, "--workers", "1")
	if status != 0 || !strings.Contains(stdout, "done: 1 epochs") {
		t.Fatalf("--init with a dropout-only --config: status %d, %s%s", status, stdout, stderr)
	}
	f, err := weights.ReadFile(tuned)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Meta.Config.DropLSTM; got != 0.5 {
		t.Errorf("LSTM dropout %g, want 0.5", got)
	}
	if got := f.Meta.Config.LSTM1Hidden; got != 10 {
		t.Errorf("first LSTM %d wide, want the initial model's 10", got)
	}
}
