package train

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/weights"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSoftCells(t *testing.T) {
	// Two words, two labels: cells (0,0), (0,1), (1,1) per kind.
	n, L := 2, 2
	cont := make([]float32, n*n*L)
	disc := make([]float32, n*n*L)
	gap := make([]float32, n*n*L)
	for i := range cont { // every label far below null: dropped
		cont[i], disc[i], gap[i] = -20, -20, -20
	}
	cont[(0*n+1)*L+1] = 2  // cont (0,1): label 1 likely
	gap[(1*n+1)*L+0] = -5  // gap (1,1): label 0 at about 0.7%: kept
	disc[(0*n+0)*L+0] = -6 // disc (0,0): about 0.25%: dropped at temperature 1
	cont[(1*n+0)*L+0] = 9  // x > y: never read
	type kept struct {
		kind uint8
		cell int32
		top  int
	}
	cases := []struct {
		name        string
		temperature float64
		want        []kept
	}{
		{"own distributions", 1, []kept{{0, 1, 1}, {2, 3, 0}}},
		// At 3, disc (0,0)'s -6 becomes -2 (about 12%) and is kept; the
		// cells of two labels at -20 (-6.7: 0.25% together) are still dropped.
		{"temperature 3", 3, []kept{{0, 1, 1}, {1, 0, 0}, {2, 3, 0}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := softCells(n, L, tc.temperature, [3][]float32{cont, disc, gap})
			if len(got) != len(tc.want) {
				t.Fatalf("%d cells kept, want %d: %+v", len(got), len(tc.want), got)
			}
			for i, w := range tc.want {
				c := got[i]
				if c.kind != w.kind || c.cell != w.cell {
					t.Errorf("cell %d: kind %d cell %d, want kind %d cell %d", i, c.kind, c.cell, w.kind, w.cell)
				}
				if slices.Index(c.probs, slices.Max(c.probs)) != w.top {
					t.Errorf("cell %d: probabilities %v, want label %d on top", i, c.probs, w.top)
				}
			}
			// cont (0,1): softmax of (0 null, -20, 2), each divided by the temperature.
			T := tc.temperature
			z := 1 + math.Exp(-20/T) + math.Exp(2/T)
			if p := float64(got[0].probs[1]); math.Abs(p-math.Exp(2/T)/z) > 1e-6 {
				t.Errorf("cont (0,1) label 1: probability %g, want %g", p, math.Exp(2/T)/z)
			}
		})
	}
}

// TestDistillResume: a run with a teacher trains differently from one
// without, records its teacher, resumes bit for bit, and refuses to resume
// with another teacher or weight.
func TestDistillResume(t *testing.T) {
	base := t.TempDir()
	data := shortSentences(t, base, 30, 12)
	run := func(name string, teacher string, stopAfter int) Options {
		o := resumeOptions(t, data, base)
		o.Out = filepath.Join(base, name+".safetensors")
		o.Teacher = teacher
		// Resumed without naming the teacher: the checkpoint does.
		return runStoppedAndResumed(t, o, stopAfter, func(o *Options) { o.Teacher = "" })
	}
	plain := run("plain", "", 0)
	a := run("a", plain.Out, 0)
	b := run("b", plain.Out, 1)
	equalRuns(t, a.Out+".ckpt", b.Out+".ckpt")
	ca, changed := checkpointAgainst(t, a.Out, plain.Out)
	if s := ca.Settings; s.Teacher != plain.Out || s.TeacherWeight != DefaultTeacherWeight || len(s.TeacherSHA256) != 64 {
		t.Errorf("checkpoint settings: teacher %q weight %g hash %q", s.Teacher, s.TeacherWeight, s.TeacherSHA256)
	}
	if !changed {
		t.Error("the teacher did not change training")
	}
	cases := []struct {
		name   string
		change func(o *Options)
		want   string
	}{
		{"another teacher", func(o *Options) { o.Teacher = a.Out }, "is not the teacher of checkpoint"},
		{"another weight", func(o *Options) { o.TeacherWeight = 0.9 }, "teacher weight 0.9 (checkpoint: 0.5)"},
		{"another temperature", func(o *Options) { o.TeacherTemperature = 2 }, "teacher temperature 2 (checkpoint: 1)"},
		{"a teacher for a run without one", func(o *Options) { o.Out, o.Teacher = plain.Out, a.Out }, "a teacher (checkpoint: none)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := b
			o.Epochs = 3
			tc.change(&o)
			_, err := Run(context.Background(), o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	// Another teacher is refused before it scores the training data (an
	// hour on the CPU for a real teacher): so even with the run already
	// interrupted, which stops any scoring, the refusal is what comes.
	o := b
	o.Teacher = a.Out
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, o); err == nil || !strings.Contains(err.Error(), "is not the teacher of checkpoint") {
		t.Errorf("another teacher, the run interrupted: %v; want it refused before any scoring", err)
	}
	// Interrupted while the teacher scores: nothing trained or changed.
	o.Teacher = ""
	before := readFile(t, b.Out+".ckpt")
	if _, err := Run(ctx, o); err == nil || !strings.Contains(err.Error(), "interrupted before training began") || !errors.Is(err, context.Canceled) {
		t.Errorf("interrupted while the teacher scores: %v", err)
	}
	if !bytes.Equal(readFile(t, b.Out+".ckpt"), before) {
		t.Error("the checkpoint changed")
	}
}

func TestTeacherRefused(t *testing.T) {
	base := t.TempDir()
	other := filepath.Join(base, "other")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	data := shortSentences(t, base, 30, 12)
	o := resumeOptions(t, shortSentences(t, other, 12, 8), other)
	o.Epochs = 1
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		teacher string
		weight  float64
		temp    float64
		want    string
		is      error
	}{
		{"other vocabulary", o.Out, 0, 0, "was trained with another vocabulary than", nil},
		{"missing file", filepath.Join(base, "none.safetensors"), 0, 0, "teacher", fs.ErrNotExist},
		{"weight above 1", o.Out, 1.5, 0, "teacher weight 1.5", nil},
		{"weight without teacher", "", 0.3, 0, "a teacher weight without a teacher", nil},
		{"negative temperature", o.Out, 0, -1, "teacher temperature -1", nil},
		{"infinite temperature", o.Out, 0, math.Inf(1), "teacher temperature +Inf", nil},
		{"temperature without teacher", "", 0, 2, "a teacher temperature without a teacher", nil},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ro := resumeOptions(t, data, base)
			ro.Out = filepath.Join(base, "run"+string(rune('a'+i))+".safetensors")
			ro.Teacher, ro.TeacherWeight, ro.TeacherTemperature = tc.teacher, tc.weight, tc.temp
			_, err := Run(context.Background(), ro)
			if err == nil || !strings.Contains(err.Error(), tc.want) || (tc.is != nil && !errors.Is(err, tc.is)) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestCrossFittedTeachers: models trained without one fold each teach the
// sentences of their held-out fold; teachers in the wrong order, or not
// trained without a fold, are refused.
func TestCrossFittedTeachers(t *testing.T) {
	base := t.TempDir()
	data := shortSentences(t, base, 30, 12)
	teacher := func(name string, holdOut, folds int) string {
		o := resumeOptions(t, data, base)
		o.Out = filepath.Join(base, name+".safetensors")
		o.HoldOut, o.Folds, o.Epochs = holdOut, folds, 1
		var lines strings.Builder
		o.Log = &lines
		if _, err := Run(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		if want := "15 sentences"; folds == 2 && !strings.Contains(lines.String(), want) {
			t.Errorf("%s: log lacks %q:\n%s", name, want, lines.String())
		}
		return o.Out
	}
	t1, t2, whole := teacher("t1", 1, 2), teacher("t2", 2, 2), teacher("whole", 0, 0)
	f, err := weights.ReadFile(t1)
	if err != nil {
		t.Fatal(err)
	}
	if want := "small.discbracket without fold 1/2"; f.Meta.TrainingData != want {
		t.Errorf("training data %q, want %q", f.Meta.TrainingData, want)
	}

	// The student: every sentence gets its teacher's distributions.
	d, err := loadData(data, "", nil, false, 0, 0, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	st, err := d.addTeacher(t.Context(), t1+","+t2, data, DefaultTeacherTemperature, 1, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Models != 2 || strings.Count(st.SHA256, ",") != 1 {
		t.Errorf("stats %+v", st)
	}
	for i, ex := range d.train {
		if ex.soft == nil {
			t.Fatalf("sentence %d: not scored by a teacher", i)
		}
	}
	// Sentence 0 is in fold 1: scoring it alone with t1, its words unseen
	// by t1 as unknown, gives the same cells.
	tf, err := weights.ReadFile(t1)
	if err != nil {
		t.Fatal(err)
	}
	models, err := tf.Models()
	if err != nil {
		t.Fatal(err)
	}
	seen := make([]bool, len(d.vocab.Words))
	for i, ex := range d.train {
		if foldOf(i, 2) == 2 {
			for _, w := range ex.input.WordIDs {
				seen[w] = true
			}
		}
	}
	in := unseenAsUnknown(d.train[0].input, seen)
	out, err := models[0].Forward(in)
	if err != nil {
		t.Fatal(err)
	}
	want := softCells(out.Scores.N, out.Scores.L, DefaultTeacherTemperature, [3][]float32{out.Scores.Cont, out.Scores.Disc, out.Scores.Gap})
	if !slices.EqualFunc(want, d.train[0].soft, func(a, b softCell) bool {
		return a.kind == b.kind && a.cell == b.cell && slices.Equal(a.probs, b.probs)
	}) {
		t.Errorf("sentence 0: soft cells differ from teacher 1's own scores")
	}

	for _, tc := range []struct{ name, teachers, want string }{
		{"swapped", t2 + "," + t1, "must be trained without fold 1/2 (--hold-out 1/2)"},
		{"not held out", t1 + "," + whole, "teacher 2 of 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := loadData(data, "", nil, false, 0, 0, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := d.addTeacher(t.Context(), tc.teachers, data, DefaultTeacherTemperature, 1, nil, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestUnseenAsUnknown(t *testing.T) {
	seen := []bool{false, false, false, true, false, true}
	in := network.Input{WordIDs: []int{3, 4, 5, 0}, CharIDs: [][]int{{7}, {8}, {9}, {10}}}
	got := unseenAsUnknown(in, seen)
	if want := []int{3, network.UnkWord, 5, 0}; !slices.Equal(got.WordIDs, want) {
		t.Errorf("word ids %v, want %v", got.WordIDs, want)
	}
	if in.WordIDs[1] != 4 {
		t.Error("the input was changed")
	}
}

func TestHoldOutOptions(t *testing.T) {
	base := t.TempDir()
	data := shortSentences(t, base, 30, 12)
	o := resumeOptions(t, data, base)
	o.HoldOut, o.Folds, o.Teacher = 1, 2, "t.safetensors"
	if _, err := Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), "a held-out fold and a teacher together") {
		t.Errorf("hold-out with a teacher: error %v", err)
	}
	for _, f := range [][2]int{{0, 2}, {3, 2}, {1, 1}, {1, 0}, {-1, 2}} {
		o := resumeOptions(t, data, base)
		o.HoldOut, o.Folds = f[0], f[1]
		if _, err := Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), "held-out fold") {
			t.Errorf("hold-out %d/%d: error %v", f[0], f[1], err)
		}
	}
	o = resumeOptions(t, data, base)
	o.HoldOut, o.Folds, o.Epochs = 1, 3, 1
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	o.Resume, o.HoldOut, o.Epochs = true, 2, 2
	if _, err := Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), "held-out fold 2/3 (checkpoint: 1/3)") {
		t.Errorf("resume with another fold: error %v", err)
	}
}

// TestTeacherOfSeveralFiles: files joined by "+" teach together, whatever
// their sizes (their scores averaged), and a file written without some of
// the training data's labels (ensemble --drop-labels) teaches the others:
// the labels it lacks get no probability, and the rest are its own
// distributions over the classes it knows.
func TestTeacherOfSeveralFiles(t *testing.T) {
	base := t.TempDir()
	data := shortSentences(t, base, 30, 12)
	train := func(name string, wider bool) string {
		o := resumeOptions(t, data, base)
		// Without dropout, enough epochs to parse some of its data right.
		o.Out, o.Epochs, o.Config, o.MaxBatchWords = filepath.Join(base, name+".safetensors"), 15, smallConfig(), 60
		if wider {
			o.Config.LSTM2Hidden += 8
		}
		if _, err := Run(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		return o.Out
	}
	a, b := train("a", false), train("b", true)
	load := func() *dataset {
		d, err := loadData(data, "", nil, false, 0, 0, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := load()
	scores := func(path string, in network.Input) network.Output {
		f, err := weights.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		models, err := f.Models()
		if err != nil {
			t.Fatal(err)
		}
		out, err := models[0].Forward(in)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	same := func(a, b []softCell, tol float64) bool {
		return slices.EqualFunc(a, b, func(x, y softCell) bool {
			return x.kind == y.kind && x.cell == y.cell && slices.EqualFunc(x.probs, y.probs, func(p, q float32) bool { return math.Abs(float64(p-q)) <= tol })
		})
	}

	// a+b: the mean of the two models' scores.
	const temperature = 2
	if st, err := d.addTeacher(t.Context(), a+"+"+b, data, temperature, 1, nil, nil); err != nil || st.Models != 2 || strings.Count(st.SHA256, ",") != 1 {
		t.Fatalf("a+b: stats %+v, error %v", st, err)
	}
	checked := 0
	for i := range 5 {
		in := d.train[i].input
		oa, ob := scores(a, in), scores(b, in)
		var mean [3][]float32
		for k, pair := range [3][2][]float32{{oa.Scores.Cont, ob.Scores.Cont}, {oa.Scores.Disc, ob.Scores.Disc}, {oa.Scores.Gap, ob.Scores.Gap}} {
			for j := range pair[0] {
				mean[k] = append(mean[k], (pair[0][j]+pair[1][j])/2)
			}
		}
		want := softCells(oa.Scores.N, oa.Scores.L, temperature, mean)
		if !same(want, d.train[i].soft, 1e-6) {
			t.Errorf("a+b, sentence %d: soft cells differ from the mean of the two models' scores", i)
		}
		checked += len(want)
	}
	if checked == 0 {
		t.Fatal("no soft cell in the sentences checked")
	}

	// A student of a+b says how good its teacher is on its dev data: the
	// F1 of the two files as parse --weights a,b scores them.
	student := resumeOptions(t, data, base)
	student.Out, student.Epochs, student.Teacher = filepath.Join(base, "student.safetensors"), 1, a+"+"+b
	var lines strings.Builder
	student.Log = &lines
	if _, err := Run(context.Background(), student); err != nil {
		t.Fatal(err)
	}
	pair, err := parser.Load(a, b)
	if err != nil {
		t.Fatal(err)
	}
	gold, err := treebank.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := EvaluateParser(context.Background(), pair, gold, DevVariant, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("a+b: dev F1 %.2f", res.All.F1)
	if want := fmt.Sprintf("(2 model(s), dev F1 %.2f)", res.All.F1); !strings.Contains(lines.String(), want) {
		t.Errorf("the student's log lacks %q:\n%s", want, lines.String())
	}

	// a without a label its training data has.
	drop := mostFrequentLabel(d)
	dropped := filepath.Join(base, "dropped.safetensors")
	writeWithoutLabels(t, dropped, []int{drop}, a)
	d = load()
	if _, err := d.addTeacher(t.Context(), dropped, data, temperature, 1, nil, nil); err != nil {
		t.Fatalf("a teacher without label %q: %v", d.vocab.Labels[drop], err)
	}
	withLabel := 0
	for i := range d.train {
		out := scores(dropped, d.train[i].input)
		want := softCells(out.Scores.N, out.Scores.L, temperature, [3][]float32{out.Scores.Cont, out.Scores.Disc, out.Scores.Gap})
		for j := range want { // the label left out comes back with probability 0
			want[j].probs = slices.Insert(want[j].probs, drop, 0)
		}
		if !same(want, d.train[i].soft, 0) {
			t.Fatalf("sentence %d: soft cells differ from the model's own distributions without label %q", i, d.vocab.Labels[drop])
		}
		withLabel += len(want)
	}
	if withLabel == 0 {
		t.Fatal("the teacher without a label kept no soft cell")
	}

	other := filepath.Join(base, "other")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	o := resumeOptions(t, shortSentences(t, other, 12, 8), other)
	o.Epochs = 1
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if _, err := load().addTeacher(t.Context(), a+"+"+o.Out, data, temperature, 1, nil, nil); err == nil || !strings.Contains(err.Error(), "teacher "+o.Out+" was trained with another vocabulary") {
		t.Errorf("a with a model of another vocabulary: error %v", err)
	}
}
