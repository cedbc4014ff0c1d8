package app_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/discspan/discspan/teach"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// exerciseApp returns an app on the teaching tab with the wh-question
// exercise ("What should I do ?") started.
func exerciseApp(t *testing.T) (*app.App, *apptest.Env) {
	t.Helper()
	a, env := teachApp(t)
	env.Do(func() { a.TeachExerciseChoose("wh-question") })
	x := &a.Teach.Exercise
	if x.Current < 0 || x.List[x.Current].ID != "wh-question" || len(x.Words) != 5 || x.Err != "" {
		t.Fatalf("exercise: current %d, %d words, error %q", x.Current, len(x.Words), x.Err)
	}
	return a, env
}

// cons lists the student's constituents ("VP[0,1)+[3,4)").
func cons(x *app.ExerciseState) []string {
	var out []string
	for _, n := range x.Nodes {
		out = append(out, n.Cons)
	}
	slices.Sort(out)
	return out
}

// keys presses keys in the exercises section; "^z" is Ctrl+Z, "^+Z"
// Ctrl+Shift+Z, "^Z" Ctrl+Z with Caps Lock on.
func keys(t *testing.T, a *app.App, env *apptest.Env, ks ...string) {
	t.Helper()
	for _, k := range ks {
		ctrl := strings.HasPrefix(k, "^") && len(k) > 1
		key := strings.TrimPrefix(k, "^")
		shift := ctrl && strings.HasPrefix(key, "+") && len(key) > 1
		key = strings.TrimPrefix(key, "+")
		var used bool
		env.Do(func() { used = a.TeachExerciseKey(key, shift, ctrl) })
		if !used {
			t.Fatalf("key %q not used", k)
		}
	}
}

// The student builds the wh-question with the keyboard and clicks, makes
// a mistake the check marks wrong, fixes it, undoes and redoes, and
// solves the exercise.
func TestExerciseSolve(t *testing.T) {
	a, env := exerciseApp(t)
	x := &a.Teach.Exercise
	if x.View == nil || !strings.Contains(x.View.SVG, "<svg") || len(x.Nodes) != 0 {
		t.Fatalf("start: view %v, nodes %v", x.View, x.Nodes)
	}
	if !slices.Contains(x.Labels, "SBARQ") || !slices.Contains(x.Labels, "VP") || slices.Contains(x.Labels, "ROOT") {
		t.Errorf("label suggestions %v", x.Labels)
	}
	steps := []struct {
		name  string
		do    func()
		keys  []string
		sel   []int
		cons  []string
		err   string
		canUn bool
	}{
		{name: "space selects the first word", keys: []string{" "}, sel: []int{0}},
		{name: "arrows move, space adds do", keys: []string{"ArrowRight", "ArrowRight", "ArrowRight", " "}, sel: []int{0, 3}},
		{name: "no label yet", keys: []string{"Enter"}, sel: []int{0, 3}, err: "label"},
		{name: "the mistake: NP over What … do", do: func() { a.TeachExerciseSetLabel(" NP ") }, keys: []string{"Enter"},
			cons: []string{"NP[0,1)+[3,4)"}, canUn: true},
		{name: "a click selects I", do: func() { a.TeachExerciseClickWord(2) }, sel: []int{2}, cons: []string{"NP[0,1)+[3,4)"}, canUn: true},
		{name: "NP over I", do: func() { a.TeachExerciseMake() }, cons: []string{"NP[0,1)+[3,4)", "NP[2,3)"}, canUn: true},
		{name: "three blocks are refused", do: func() {
			a.TeachExerciseClickWord(0)
			a.TeachExerciseClickWord(2)
			a.TeachExerciseClickWord(4)
			a.TeachExerciseMake()
		}, sel: []int{0, 2, 4}, cons: []string{"NP[0,1)+[3,4)", "NP[2,3)"}, err: "3 blocks", canUn: true},
		{name: "escape clears", keys: []string{"Escape"}, cons: []string{"NP[0,1)+[3,4)", "NP[2,3)"}, canUn: true},
	}
	for _, st := range steps {
		if st.do != nil {
			env.Do(st.do)
		}
		keys(t, a, env, st.keys...)
		if got := x.Selection(); !slices.Equal(got, st.sel) {
			t.Errorf("%s: selection %v, want %v", st.name, got, st.sel)
		}
		if got := cons(x); !slices.Equal(got, st.cons) {
			t.Errorf("%s: constituents %v, want %v", st.name, got, st.cons)
		}
		if st.err == "" && x.Err != "" || !strings.Contains(x.Err, st.err) {
			t.Errorf("%s: error %q, want %q", st.name, x.Err, st.err)
		}
		if x.CanUndo() != st.canUn {
			t.Errorf("%s: can undo %v", st.name, x.CanUndo())
		}
	}

	// The check marks the NP over "What … do" wrong, the other right; the
	// missing constituents are listed only when asked for.
	env.Do(a.TeachExerciseCheck)
	v := x.Verdict
	if v == nil || v.Solved || !slices.Equal(v.Wrong, []string{"NP: What … do"}) || !slices.Equal(v.Right, []string{"NP: I"}) ||
		len(v.Missing) != 4 || v.Precision != "50.0" || v.Recall != "20.0" || x.ShowMissing {
		t.Fatalf("verdict %+v", v)
	}
	classes := map[string]string{}
	for _, n := range x.Nodes {
		classes[n.Cons] = n.Class
	}
	if classes["NP[0,1)+[3,4)"] != "wrong" || classes["NP[2,3)"] != "match" || !strings.Contains(x.View.SVG, ` wrong"`) {
		t.Errorf("marks %v", classes)
	}
	env.Do(a.TeachExerciseShowMissing)
	if !x.ShowMissing {
		t.Error("missing not shown")
	}

	// Relabel the wrong NP as VP: the verdict goes (the tree changed).
	wrong := slices.IndexFunc(x.Nodes, func(n app.ExerciseNode) bool { return n.Cons == "NP[0,1)+[3,4)" })
	env.Do(func() { a.TeachExerciseClickNode(x.Nodes[wrong].Index) })
	if x.Node != x.Nodes[wrong].Index || x.Label != "NP" || !x.Nodes[wrong].Selected {
		t.Fatalf("node selection: %d, label %q", x.Node, x.Label)
	}
	env.Do(func() { a.TeachExerciseSetLabel("VP"); a.TeachExerciseRelabel() })
	if x.Verdict != nil || x.Err != "" || !slices.Equal(cons(x), []string{"NP[2,3)", "VP[0,1)+[3,4)"}) {
		t.Fatalf("relabel: verdict %v, error %q, %v", x.Verdict, x.Err, cons(x))
	}

	// WHNP over What, SQ over What should I do, SBARQ over everything:
	// solved.
	env.Do(func() {
		a.TeachExerciseClickWord(0)
		a.TeachExerciseSetLabel("WHNP")
		a.TeachExerciseMake()
		for i := range 4 {
			a.TeachExerciseClickWord(i)
		}
		a.TeachExerciseSetLabel("SQ")
		a.TeachExerciseMake()
	})
	keys(t, a, env, "Home")
	keys(t, a, env, slices.Repeat([]string{" ", "ArrowRight"}, 5)...)
	env.Do(func() { a.TeachExerciseSetLabel("SBARQ") })
	keys(t, a, env, "Enter")
	solved := []string{"NP[2,3)", "SBARQ[0,5)", "SQ[0,4)", "VP[0,1)+[3,4)", "WHNP[0,1)"}
	if got := cons(x); !slices.Equal(got, solved) {
		t.Fatalf("built %v, want %v (error %q)", got, solved, x.Err)
	}

	// Ctrl+Z undoes the SBARQ, Ctrl+Y (and Ctrl+Shift+Z) redo it.
	keys(t, a, env, "^z")
	if got := cons(x); len(got) != 4 || !x.CanRedo() || !strings.Contains(x.Msg, "Undone") {
		t.Fatalf("undo: %v, %q", got, x.Msg)
	}
	keys(t, a, env, "^y")
	keys(t, a, env, "^z", "^+Z")
	if got := cons(x); !slices.Equal(got, solved) || x.CanRedo() {
		t.Fatalf("redo: %v", got)
	}
	// With Caps Lock on, Ctrl+Z gives the key "Z": it still undoes.
	keys(t, a, env, "^Z")
	if got := cons(x); len(got) != 4 || !x.CanRedo() {
		t.Fatalf("Ctrl+Z with Caps Lock: %v; want the SBARQ undone", got)
	}
	keys(t, a, env, "^+Z")
	env.Do(a.TeachExerciseCheck)
	if v := x.Verdict; v == nil || !v.Solved || v.F1 != "100.0" || len(v.Right) != 5 || len(v.Wrong)+len(v.Missing) != 0 {
		t.Fatalf("solved verdict %+v", v)
	}

	// Delete the SQ: its children go to the SBARQ.
	sq := slices.IndexFunc(x.Nodes, func(n app.ExerciseNode) bool { return n.Label == "SQ" })
	env.Do(func() { a.TeachExerciseClickNode(x.Nodes[sq].Index) })
	keys(t, a, env, "Delete")
	if got := cons(x); !slices.Equal(got, []string{"NP[2,3)", "SBARQ[0,5)", "VP[0,1)+[3,4)", "WHNP[0,1)"}) || x.Verdict != nil {
		t.Fatalf("delete: %v", got)
	}
	env.Do(a.TeachExerciseUndo)
	env.Do(a.TeachExerciseRestart)
	if len(x.Nodes) != 0 || x.CanUndo() || x.Verdict != nil {
		t.Errorf("restart: %v", cons(x))
	}
}

// Commands that cannot apply say why and change nothing; keys do nothing
// on other tabs.
func TestExerciseRefusals(t *testing.T) {
	a, env := exerciseApp(t)
	x := &a.Teach.Exercise
	tests := []struct {
		name string
		do   func()
		err  string
	}{
		{"make without words", func() { a.TeachExerciseSetLabel("NP"); a.TeachExerciseMake() }, "Select words"},
		{"relabel without a node", a.TeachExerciseRelabel, "Select a constituent"},
		{"delete without a node", a.TeachExerciseDelete, "Select a constituent"},
		{"nothing to undo", a.TeachExerciseUndo, "Nothing to undo"},
		{"nothing to redo", a.TeachExerciseRedo, "Nothing to redo"},
		{"crossing", func() {
			a.TeachExerciseClickWord(0)
			a.TeachExerciseClickWord(1)
			a.TeachExerciseMake()
			a.TeachExerciseClickWord(1)
			a.TeachExerciseClickWord(2)
			a.TeachExerciseMake()
		}, "crosses"},
	}
	for _, tc := range tests {
		env.Do(tc.do)
		if !strings.Contains(x.Err, tc.err) {
			t.Errorf("%s: error %q, want %q", tc.name, x.Err, tc.err)
		}
	}
	if got := cons(x); !slices.Equal(got, []string{"NP[0,2)"}) {
		t.Errorf("constituents %v", got)
	}
	// The cursor stays on the words.
	keys(t, a, env, "End", "ArrowRight", "ArrowRight")
	if x.Cursor != 4 || !x.Words[4].Cur {
		t.Errorf("cursor %d", x.Cursor)
	}
	keys(t, a, env, "Home", "ArrowLeft")
	if x.Cursor != 0 {
		t.Errorf("cursor %d", x.Cursor)
	}
	var used bool
	env.Do(func() { used = a.TeachExerciseKey("a", false, false) || a.TeachExerciseKey("c", false, true) })
	if used {
		t.Error("other keys used")
	}
	env.Do(func() { a.SetTab(app.TabParse); used = a.TeachExerciseKey(" ", false, false) })
	if used || len(x.Selection()) != 2 {
		t.Errorf("another tab: key used %v, selection %v", used, x.Selection())
	}
}

func TestParseExerciseFragment(t *testing.T) {
	tests := []struct {
		frag string
		ok   bool
		want app.Fragment
		err  error
	}{
		{"#exercise=wh-question~t1.abc", true, app.Fragment{Teach: true, Exercise: "wh-question~t1.abc"}, nil},
		{"exercise=wh-question", true, app.Fragment{Teach: true, Exercise: "wh-question"}, nil},
		{"#x&exercise=a%7Et1.b", true, app.Fragment{Teach: true, Exercise: "a~t1.b"}, nil},
		{"#exercise=", true, app.Fragment{Teach: true}, app.ErrNoAttemptInLink},
		{"#exercise", true, app.Fragment{Teach: true}, app.ErrNoAttemptInLink},
	}
	for _, tc := range tests {
		f, ok, err := app.ParseFragment(tc.frag)
		if f != tc.want || ok != tc.ok || !errors.Is(err, tc.err) || (err == nil) != (tc.err == nil) {
			t.Errorf("%q: %+v %v %v, want %+v %v %v", tc.frag, f, ok, err, tc.want, tc.ok, tc.err)
		}
	}
}

// A shared attempt opens in a fresh app with the same tree and verdict;
// damaged links say so.
func TestExerciseShare(t *testing.T) {
	a, env := exerciseApp(t)
	x := &a.Teach.Exercise
	var frag string
	env.Do(func() {
		for _, w := range []int{0, 3} {
			a.TeachExerciseClickWord(w)
		}
		a.TeachExerciseSetLabel("NP")
		a.TeachExerciseMake()
		a.TeachExerciseClickWord(2)
		a.TeachExerciseMake()
		a.TeachExerciseCheck()
		frag = a.TeachExerciseShare()
	})
	if !strings.HasPrefix(frag, "#exercise=wh-question~t2.") || x.Link != frag {
		t.Fatalf("share: %q (Link %q, error %q)", frag, x.Link, x.LinkErr)
	}
	e, tr, err := teach.DecodeAttempt(strings.TrimPrefix(frag, "#exercise="))
	if err != nil || e.ID != "wh-question" || exportOf(t, tr) != exportOf(t, x.Tree()) {
		t.Fatalf("decoded: %s, %v", e.ID, err)
	}

	b := app.New(&apptest.Env{}, apptest.NewPlatform(), app.Options{})
	if !b.OpenFragment(frag) {
		t.Fatal("the link was not opened")
	}
	y := &b.Teach.Exercise
	if b.Tab != app.TabTeach || y.LinkErr != "" || y.Opened != 1 || y.List[y.Current].ID != "wh-question" {
		t.Fatalf("tab %s, error %q, opened %d", b.Tab, y.LinkErr, y.Opened)
	}
	if !slices.Equal(cons(y), cons(x)) || y.Verdict == nil || !slices.Equal(y.Verdict.Wrong, x.Verdict.Wrong) || y.Verdict.F1 != x.Verdict.F1 {
		t.Errorf("opened %v %+v, shared %v %+v", cons(y), y.Verdict, cons(x), x.Verdict)
	}
	// The opened attempt goes on: undo has nothing (a fresh history), new
	// edits work.
	b.TeachExerciseClickWord(4)
	b.TeachExerciseSetLabel("X")
	b.TeachExerciseMake()
	if len(y.Nodes) != 3 || y.Verdict != nil {
		t.Errorf("editing the opened attempt: %v", cons(y))
	}

	other, err := teach.ExerciseByID("verb-second")
	if err != nil {
		t.Fatal(err)
	}
	foreign, err := teach.EncodeTree(other.Start())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		frag, want string
		nodes      int
	}{
		{"#exercise=verb-second", "", 0},
		{frag[:len(frag)-6], "cannot be opened", 0},
		{"#exercise=wh-question~t1.AAAA", "cannot be opened", 0},
		{"#exercise=nope~" + foreign, "no exercise", 0},
		{"#exercise=wh-question~" + foreign, "not of exercise", 0},
		{"#exercise=nope", "no exercise", 0},
		{"#exercise=", "holds no exercise", 0},
	}
	for _, tc := range tests {
		c := app.New(&apptest.Env{}, apptest.NewPlatform(), app.Options{})
		if !c.OpenFragment(tc.frag) || c.Tab != app.TabTeach {
			t.Errorf("%q: not opened", tc.frag)
			continue
		}
		z := &c.Teach.Exercise
		if !strings.Contains(z.LinkErr, tc.want) || (tc.want == "") != (z.LinkErr == "") || z.Opened != 1 {
			t.Errorf("%q: error %q, want %q (opened %d)", tc.frag, z.LinkErr, tc.want, z.Opened)
		}
		if z.Current < 0 || len(z.Nodes) != tc.nodes {
			t.Errorf("%q: current %d, %d nodes", tc.frag, z.Current, len(z.Nodes))
		}
	}
}
