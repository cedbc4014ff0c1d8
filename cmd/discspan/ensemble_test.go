package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/weights"
)

// TestEnsembleCommand trains two very small networks on a few dev sentences
// (different seeds), combines them, and checks the file, the dev report and
// that parsing with the ensemble file equals parsing with the two files
// named together.
func TestEnsembleCommand(t *testing.T) {
	data, err := os.ReadFile(dataPath(t, "dev.punctmoved.discbracket"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	small := filepath.Join(dir, "small.discbracket")
	os.WriteFile(small, []byte(strings.Join(strings.SplitAfter(string(data), "\n")[:15], "")), 0o644)
	cfg := filepath.Join(dir, "cfg.json")
	os.WriteFile(cfg, []byte(`{"word_dim": 8, "char_dim": 4, "char_hidden": 6, "lstm1_hidden": 10, "lstm2_hidden": 12, "label_mlp": 7, "span_mlp": 5}`), 0o644)
	// The second model is trained on a copy under another name: the
	// ensemble's card names both.
	small2 := filepath.Join(dir, "small2.discbracket")
	os.WriteFile(small2, []byte(strings.Join(strings.SplitAfter(string(data), "\n")[:15], "")), 0o644)
	var models []string
	for _, seed := range []string{"1", "2"} {
		out := filepath.Join(dir, "m"+seed+".safetensors")
		train := map[string]string{"1": small, "2": small2}[seed]
		if _, stderr, status := runCmd("train", "--train", train, "--dev", small, "--out", out, "--epochs", "2", "--config", cfg, "--workers", "1", "--seed", seed); status != 0 {
			t.Fatalf("train: %s", stderr)
		}
		models = append(models, out)
	}
	// An --out in a folder that does not exist is refused before the
	// models are read and evaluated on dev.
	missing := filepath.Join(dir, "nodir", "ens.safetensors")
	if stdout, stderr, status := runCmd(append([]string{"ensemble", "--out", missing, "--dtype", "F32", "--dev", small}, models...)...); status == 0 || !strings.Contains(stderr, "does not exist") || strings.Contains(stdout, "F1") {
		t.Errorf("--out in a missing folder: status %d, stdout %q, stderr %q; want it refused before any evaluation", status, stdout, stderr)
	}
	ens := filepath.Join(dir, "ens.safetensors")
	stdout, stderr, status := runCmd(append([]string{"ensemble", "--out", ens, "--dtype", "F32", "--dev", small}, models...)...)
	if status != 0 {
		t.Fatalf("ensemble: %s", stderr)
	}
	for _, want := range []string{models[0], models[1], "ensemble of 2", "wrote " + ens + ": 2 models, F32"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output does not mention %q:\n%s", want, stdout)
		}
	}
	f, err := weights.ReadFile(ens)
	if err != nil {
		t.Fatal(err)
	}
	if f.Ensemble != 2 || !strings.Contains(f.Meta.Extra["ensemble_of"], "m2.safetensors") || !strings.HasPrefix(f.Meta.CreatedBy, "discspan ensemble") {
		t.Errorf("file: %d models, ensemble_of %q, created_by %q", f.Ensemble, f.Meta.Extra["ensemble_of"], f.Meta.CreatedBy)
	}
	if want := "small.discbracket + small2.discbracket"; f.Meta.TrainingData != want {
		t.Errorf("training data %q, want %q (each member's)", f.Meta.TrainingData, want)
	}
	parse := func(w string) string {
		t.Helper()
		out, stderr, status := runCmd("parse", "--weights", w, "--input", small)
		if status != 0 {
			t.Fatalf("parse --weights %s: %s", w, stderr)
		}
		return out
	}
	together, fromFile, first := parse(models[0]+","+models[1]), parse(ens), parse(models[0])
	if together != fromFile {
		t.Errorf("the ensemble file parses differently from its two models named together:\n%s\n%s", fromFile, together)
	}
	if together == first {
		t.Log("note: on these sentences the ensemble parses as its first model")
	}
	m0, err := weights.ReadFile(models[0])
	if err != nil {
		t.Fatal(err)
	}
	twice := m0.Meta.Vocab.Labels[0] + "," + m0.Meta.Vocab.Labels[0]
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ensemble", "--out", ens, "--drop-labels", twice, models[0], models[1]}, "--drop-labels names " + m0.Meta.Vocab.Labels[0] + " twice"},
		{[]string{"ensemble", "--out", ens}, "want at least one weights file"},
		{[]string{"ensemble", models[0], models[1]}, "--out FILE is required"},
		{[]string{"ensemble", "--out", ens, models[0], small}, "weights"},
		{[]string{"ensemble", "--out", ens, "--dtype", "F8", models[0], models[1]}, "F8"},
		{[]string{"ensemble", "--out", ens, "--drop-labels", "NOSUCH", models[0], models[1]}, `no label "NOSUCH"`},
		{[]string{"ensemble", "--out", ens, "--calibrate", "n3", models[0], models[1]}, "--calibrate needs --dev"},
		{[]string{"ensemble", "--out", ens, "--dev", small, "--calibrate", "n9", models[0], models[1]}, "n9"},
	} {
		if _, stderr, status := runCmd(c.args...); status != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: status %d, stderr %q, want %q", c.args, status, stderr, c.want)
		}
	}
	// Leaving out a label and calibrating n3: the file has one label fewer
	// and its calibration, which parse applies.
	pruned := filepath.Join(dir, "pruned.safetensors")
	label := f.Meta.Vocab.Labels[0]
	stdout, stderr, status = runCmd(append([]string{"ensemble", "--out", pruned, "--dtype", "F32", "--dev", small, "--drop-labels", label, "--calibrate", "n3"}, models...)...)
	if status != 0 {
		t.Fatalf("ensemble --drop-labels --calibrate: %s", stderr)
	}
	for _, want := range []string{"left out 1 labels: " + label, "calibration of n3", "chosen: disc"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output does not mention %q:\n%s", want, stdout)
		}
	}
	pf, err := weights.ReadFile(pruned)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pf.Meta.Config.Labels, f.Meta.Config.Labels-1; got != want || len(pf.Meta.Vocab.Labels) != want || pf.Meta.Vocab.Labels[0] == label {
		t.Errorf("pruned file: %d labels (vocabulary %q), want %d without %q", got, pf.Meta.Vocab.Labels, want, label)
	}
	if !strings.Contains(pf.Meta.Extra["calibration"], `"n3"`) {
		t.Errorf("pruned file's calibration %q, want an n3 entry", pf.Meta.Extra["calibration"])
	}
	if strings.Contains(parse(pruned), "("+label+" ") {
		t.Errorf("the pruned ensemble predicts the label %s it left out", label)
	}
	// The pruned file joins a model that has the label: the ensemble file
	// of the two has every label and parses as the two named together,
	// never predicting the label the pruned file left out.
	rejoined := filepath.Join(dir, "rejoined.safetensors")
	if _, stderr, status := runCmd("ensemble", "--out", rejoined, "--dtype", "F32", pruned, models[1]); status != 0 {
		t.Fatalf("ensemble of a pruned file and a model: %s", stderr)
	}
	rf, err := weights.ReadFile(rejoined)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rf.Meta.Vocab.Labels, f.Meta.Vocab.Labels) || rf.Meta.Config.Labels != f.Meta.Config.Labels || rf.Ensemble != 3 {
		t.Errorf("rejoined file: %d models, labels %q (config %d), want 3 models with %q", rf.Ensemble, rf.Meta.Vocab.Labels, rf.Meta.Config.Labels, f.Meta.Vocab.Labels)
	}
	if got, want := parse(rejoined), parse(pruned+","+models[1]); got != want || strings.Contains(got, "("+label+" ") {
		t.Errorf("the rejoined file parses differently from its files named together, or predicts %s:\n%s\n%s", label, got, want)
	}
	// One model: an ordinary file, built with the same options (a single
	// model's int8 file with labels left out and its calibration), that
	// parses as the model's own file minus the label.
	single := filepath.Join(dir, "single.safetensors")
	stdout, stderr, status = runCmd("ensemble", "--out", single, "--dtype", "I8", "--dev", small, "--drop-labels", label, "--calibrate", "n3", models[0])
	if status != 0 {
		t.Fatalf("ensemble of one model: %s", stderr)
	}
	for _, want := range []string{models[0] + " ", "wrote " + single + ": 1 models, I8", "calibration of n3"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("one model: output does not mention %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "ensemble of") {
		t.Errorf("one model: the dev report names an ensemble:\n%s", stdout)
	}
	sf, err := weights.ReadFile(single)
	if err != nil {
		t.Fatal(err)
	}
	if sf.Ensemble != 1 || sf.DType != weights.Int8 || sf.Meta.Config.Labels != f.Meta.Config.Labels-1 || !strings.Contains(sf.Meta.Extra["calibration"], `"n3"`) {
		t.Errorf("one model: %d models, %v, %d labels, calibration %q", sf.Ensemble, sf.DType, sf.Meta.Config.Labels, sf.Meta.Extra["calibration"])
	}
	if _, err := sf.Model(); err != nil {
		t.Errorf("one model: not an ordinary file: %v", err)
	}
	// Both models in 4 bits: a smaller file that parses.
	four := filepath.Join(dir, "four.safetensors")
	if stdout, stderr, status := runCmd(append([]string{"ensemble", "--out", four, "--dtype", "I4"}, models...)...); status != 0 || !strings.Contains(stdout, "wrote "+four+": 2 models, I4") {
		t.Fatalf("ensemble in 4 bits: status %d, %s%s", status, stdout, stderr)
	}
	if ff, err := weights.ReadFile(four); err != nil || ff.DType != weights.Int4 || ff.Ensemble != 2 || ff.Bytes >= f.Bytes {
		t.Errorf("4-bit ensemble: %v, %v, %d models, %d bytes (float32: %d)", err, ff.DType, ff.Ensemble, ff.Bytes, f.Bytes)
	}
	if strings.Count(parse(four), "\n") != strings.Count(fromFile, "\n") {
		t.Errorf("the 4-bit ensemble parses a different number of sentences")
	}
	// The dev F1 a 4-bit file records is that of its 4-bit models: what
	// parse and eval give for the file (the shipped models: trained ones).
	shipped, err := weights.WriteDefault(dir)
	if err != nil {
		t.Fatal(err)
	}
	fourDev := filepath.Join(dir, "four-dev.safetensors")
	if _, stderr, status := runCmd("ensemble", "--out", fourDev, "--dtype", "I4", "--dev", small, shipped); status != 0 {
		t.Fatalf("ensemble --dtype I4 --dev: %s", stderr)
	}
	parsed := filepath.Join(dir, "four-dev.discbracket")
	os.WriteFile(parsed, []byte(parse(fourDev)), 0o644)
	report, stderr, status := runCmd("eval", small, parsed)
	if status != 0 {
		t.Fatalf("eval: %s", stderr)
	}
	fd, err := weights.ReadFile(fourDev)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%.2f", fd.Meta.DevF1); !regexp.MustCompile(`labeled f-measure:\s+\S+\s+` + regexp.QuoteMeta(want) + `\n`).MatchString(report) {
		t.Errorf("the 4-bit file records dev F1 %s; eval of its parses:\n%s", want, report)
	}
	// A model of other sizes cannot join.
	other := filepath.Join(dir, "other.safetensors")
	os.WriteFile(cfg, []byte(`{"word_dim": 8, "char_dim": 4, "char_hidden": 6, "lstm1_hidden": 10, "lstm2_hidden": 12, "label_mlp": 7, "span_mlp": 6}`), 0o644)
	if _, stderr, status := runCmd("train", "--train", small, "--dev", small, "--out", other, "--epochs", "1", "--config", cfg, "--workers", "1"); status != 0 {
		t.Fatalf("train: %s", stderr)
	}
	if _, stderr, status := runCmd("ensemble", "--out", ens, models[0], other); status != 2 || !strings.Contains(stderr, "share one configuration") {
		t.Errorf("mixed sizes: status %d, %q", status, stderr)
	}
	// A model trained on other sentences has another vocabulary.
	otherData := filepath.Join(dir, "other.discbracket")
	os.WriteFile(otherData, []byte(strings.Join(strings.SplitAfter(string(data), "\n")[15:30], "")), 0o644)
	otherVocab := filepath.Join(dir, "vocab.safetensors")
	if _, stderr, status := runCmd("train", "--train", otherData, "--dev", small, "--out", otherVocab, "--epochs", "1", "--config", cfg, "--workers", "1"); status != 0 {
		t.Fatalf("train: %s", stderr)
	}
	for _, args := range [][]string{
		{"ensemble", "--out", ens, other, otherVocab},
		{"parse", "--weights", models[0] + "," + otherVocab, "--input", small},
	} {
		if _, stderr, status := runCmd(args...); status != 2 || !strings.Contains(stderr, "differ") {
			t.Errorf("%v: status %d, %q, want a vocabulary mismatch", args, status, stderr)
		}
	}
	// Named together for parsing, models of other sizes but one
	// vocabulary average fine.
	if _, stderr, status := runCmd("parse", "--weights", models[0]+","+other, "--input", small); status != 0 {
		t.Errorf("parse with mixed sizes: status %d, %q", status, stderr)
	}
}

// TestAsStored: the models the ensemble command measures are those its
// file gives back, weight for weight, in every dtype; in 4 bits they are
// not the float models read.
func TestAsStored(t *testing.T) {
	f, models := shippedModels(t)
	members := []*network.Params{models[0].Params}
	for _, dt := range []weights.DType{weights.Float32, weights.Float16, weights.Int8, weights.Int4} {
		stored, err := asStored(members, f.Meta, dt)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "m.safetensors")
		if err := weights.WriteEnsembleFile(path, members, f.Meta, dt); err != nil {
			t.Fatal(err)
		}
		rf, err := weights.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		back, err := rf.Models()
		if err != nil {
			t.Fatal(err)
		}
		changed := 0
		for i, tensor := range stored[0].Params.Tensors() {
			if !slices.Equal(tensor.Data, back[0].Params.Tensors()[i].Data) {
				t.Fatalf("%v: tensor %s differs from the file's", dt, tensor.Name)
			}
			if !slices.Equal(tensor.Data, members[0].Tensors()[i].Data) {
				changed++
			}
		}
		if dt == weights.Int4 && changed == 0 {
			t.Errorf("%v: every tensor equals the model read: not rounded", dt)
		}
		t.Logf("%v: %d of %d tensors differ from the model read", dt, changed, len(members[0].Tensors()))
	}
}

// shippedModels returns the shipped default file and its models.
func shippedModels(t *testing.T) (*weights.File, []*network.Model) {
	t.Helper()
	f, err := weights.Default()
	if err != nil {
		t.Fatal(err)
	}
	models, err := f.Models()
	if err != nil {
		t.Fatal(err)
	}
	return f, models
}

// TestEnsembleChoose checks on the shipped pair's two models, written as
// files of their own, and the first again as a third, that ensemble
// --choose 2 reports, for every pair and every model alone, the dev F1
// that the file of those models (same --dtype and --drop-labels) records,
// best first (the first model paired with itself is the model alone); and
// its usage errors.
func TestEnsembleChoose(t *testing.T) {
	data, err := os.ReadFile(dataPath(t, "dev.punctmoved.discbracket"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	small := filepath.Join(dir, "small.discbracket")
	os.WriteFile(small, []byte(strings.Join(strings.SplitAfter(string(data), "\n")[:40], "")), 0o644)
	f, _ := shippedModels(t)
	var models []string
	for i, k := range []int{0, 1, 0} {
		out := filepath.Join(dir, fmt.Sprintf("m%d.safetensors", i+1))
		if err := weights.WriteEnsembleFile(out, f.Members[k:k+1], f.Meta, weights.Float32); err != nil {
			t.Fatal(err)
		}
		models = append(models, out)
	}
	drop := f.Meta.Vocab.Labels[len(f.Meta.Vocab.Labels)-1]
	opts := []string{"--dtype", "I4", "--dev", small, "--drop-labels", drop}
	stdout, stderr, status := runCmd(append(append([]string{"ensemble", "--choose", "2"}, opts...), models...)...)
	if status != 0 {
		t.Fatalf("ensemble --choose: %s", stderr)
	}
	// What a file of the same models records, formatted as --choose prints it.
	recorded := func(members ...string) string {
		t.Helper()
		out := filepath.Join(dir, "chosen.safetensors")
		if _, stderr, status := runCmd(append(append([]string{"ensemble", "--out", out}, opts...), members...)...); status != 0 {
			t.Fatalf("ensemble %v: %s", members, stderr)
		}
		ef, err := weights.ReadMeta(out)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%6.2f  %6.2f", ef.Meta.DevF1, ef.Meta.DevDiscF1)
	}
	if alone, pair := recorded(models[0]), recorded(models[0], models[1]); alone == pair {
		t.Fatalf("the first model alone and the pair score alike on these sentences (%s): the comparisons below could not tell them apart", alone)
	}
	for _, m := range models {
		want := strings.Replace(recorded(m), "  ", "  disc. F1 ", 1)
		if !strings.Contains(stdout, fmt.Sprintf("%-40s dev F1 %s", m, want)) {
			t.Errorf("--choose reports %s otherwise than its file (dev F1 %s):\n%s", m, want, stdout)
		}
	}
	pairs := [][2]int{{0, 1}, {0, 2}, {1, 2}} // {0, 2}: the first model with itself
	var lines []string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.Contains(l, " + ") {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	if len(lines) != len(pairs) {
		t.Fatalf("%d pairs reported, want %d:\n%s", len(lines), len(pairs), stdout)
	}
	for _, p := range pairs {
		want := recorded(models[p[0]], models[p[1]]) + "  " + models[p[0]] + " + " + models[p[1]]
		if !slices.Contains(lines, strings.TrimSpace(want)) {
			t.Errorf("--choose does not report %q (its file's figures):\n%s", want, stdout)
		}
	}
	var last float64 = 101
	for _, l := range lines {
		var f1 float64
		fmt.Sscan(l, &f1)
		if f1 > last {
			t.Errorf("pairs not best first:\n%s", strings.Join(lines, "\n"))
		}
		last = f1
	}
	// A file holding an ensemble gives each of its models: named apart.
	shipped, err := weights.WriteDefault(dir)
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, status = runCmd("ensemble", "--choose", "2", "--dev", small, shipped, models[1])
	if status != 0 || strings.Count(stdout, " + ") != 3 || !strings.Contains(stdout, shipped+" (model 2 of 2) + "+models[1]) {
		t.Errorf("--choose with an ensemble file: status %d, %s\n%s", status, stderr, stdout)
	}
	// Models of two sizes (the shipped small pair and the tiny pair): each
	// is stored alone, and the ensemble of all four scores what `parse
	// --weights` of the two files does.
	fast := filepath.Join("..", "..", "weights", "fast.safetensors")
	stdout, stderr, status = runCmd("ensemble", "--choose", "4", "--dtype", "F32", "--dev", small, shipped, fast)
	if status != 0 || !strings.Contains(stdout, "(models of several sizes:") || strings.Count(stdout, " + ") != 3 {
		t.Fatalf("--choose over two sizes: status %d, %s\n%s", status, stderr, stdout)
	}
	parsed, stderr, status := runCmd("parse", "--weights", shipped+","+fast, "--input", small)
	if status != 0 {
		t.Fatalf("parse --weights of two sizes: %s", stderr)
	}
	pred := filepath.Join(dir, "four.discbracket")
	if err := os.WriteFile(pred, []byte(parsed), 0o644); err != nil {
		t.Fatal(err)
	}
	evalJSON, stderr, status := runCmd("eval", "--json", small, pred)
	var ev struct {
		All struct {
			F1     float64 `json:"f1"`
			DiscF1 float64 `json:"disc_f1"`
		} `json:"all"`
	}
	if status != 0 || json.Unmarshal([]byte(evalJSON), &ev) != nil {
		t.Fatalf("eval: status %d, %s, %q", status, stderr, evalJSON)
	}
	if want := fmt.Sprintf("%6.2f  %6.2f  %s (model 1 of 2) + ", ev.All.F1, ev.All.DiscF1, shipped); !strings.Contains(stdout, want) {
		t.Errorf("--choose 4 of two sizes does not report %q, parse's figures:\n%s", want, stdout)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ensemble", "--out", filepath.Join(dir, "x.safetensors"), shipped, fast}, "an ensemble's models share one configuration"},
		{[]string{"ensemble", "--choose", "2", "--dev", small, "--out", filepath.Join(dir, "x.safetensors"), models[0], models[1]}, "takes no --out"},
		{[]string{"ensemble", "--choose", "2", models[0], models[1]}, "--choose needs --dev"},
		{[]string{"ensemble", "--choose", "4", "--dev", small, models[0], models[1], models[2]}, "--choose 4 of 3 models"},
		{[]string{"ensemble", "--choose", "-1", "--dev", small, models[0], models[1]}, "--choose -1: want a number of models"},
	} {
		if _, stderr, status := runCmd(c.args...); status != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: status %d, stderr %q, want %q", c.args, status, stderr, c.want)
		}
	}
}

func TestCombinations(t *testing.T) {
	for _, c := range []struct{ n, k int }{{3, 2}, {5, 2}, {5, 3}, {4, 4}, {4, 1}, {16, 8}} {
		got := combinations(c.n, c.k)
		if want := binomial(c.n, c.k, 1<<30); len(got) != want {
			t.Errorf("%d choose %d: %d combinations, want %d", c.n, c.k, len(got), want)
		}
		seen := map[string]bool{}
		for _, comb := range got {
			if len(comb) != c.k || !slices.IsSorted(comb) || comb[0] < 0 || comb[c.k-1] >= c.n || seen[fmt.Sprint(comb)] {
				t.Fatalf("%d choose %d: bad or repeated combination %v", c.n, c.k, comb)
			}
			seen[fmt.Sprint(comb)] = true
		}
	}
	if got := binomial(16, 8, 500); got != 501 {
		t.Errorf("binomial(16, 8) saturated at 500: %d", got)
	}
}

// More models than an ensemble may hold are refused from the files'
// headers, before any is loaded (100 files ran out of memory before the
// count came): 9 copies of the shipped pair are 18 models. A damaged file
// after them shows the order: loading would fail on it first.
func TestEnsembleTooManyModels(t *testing.T) {
	shipped := filepath.Join("..", "..", "weights", "default.safetensors")
	damaged := filepath.Join(t.TempDir(), "damaged.safetensors")
	if err := os.WriteFile(damaged, []byte("not a weights file"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"ensemble", "--choose", "2", "--dev", dataPath(t, "dev.discbracket")}
	for range 9 {
		args = append(args, shipped)
	}
	_, stderr, status := runCmd(append(args, damaged)...)
	if status != 2 || !strings.Contains(stderr, "18 models in 10 files, at most 16") {
		t.Errorf("status %d, stderr %q", status, stderr)
	}
}
