package annotate

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

// snapshot is what undo and redo must restore.
type snapshot struct {
	tree      *tree.Tree
	status    Status
	note      string
	fixed     []Fixed
	forbidden []Yield
}

func snap(s *Sentence) snapshot {
	return snapshot{s.Tree().Clone(), s.Status(), s.Note(), s.Fixed(), s.Forbidden()}
}

func TestUndoRedo(t *testing.T) {
	ctx := context.Background()
	s := NewSentence(parse(t, manDog), PreAnnotated)
	cmds := []Command{
		Relabel{1, "DP"},
		DeleteNode{0},
		SetTag{5, "PUNCT"},
		Reattach{WordRef(5), 2},
		CreateConstituent{"X", []int{3}},
		SetNote{"odd"},
		SetStatus{Checked},
		UnfixNode{0},
	}
	states := []snapshot{snap(s)}
	var descs []string
	for _, c := range cmds {
		descs = append(descs, c.Describe(s.Tree()))
		if err := s.Do(ctx, c, nil); err != nil {
			t.Fatalf("%s: %v", c.Describe(s.Tree()), err)
		}
		states = append(states, snap(s))
	}
	if got := s.UndoList(); len(got) != len(cmds) || got[0] != descs[len(descs)-1] || got[len(got)-1] != descs[0] {
		t.Errorf("undo list %q, want the descriptions %q in reverse", got, descs)
	}
	for k := len(cmds); k > 0; k-- {
		desc, err := s.Undo()
		if err != nil || desc != descs[k-1] {
			t.Fatalf("undo %d: %q, %v; want %q", k, desc, err, descs[k-1])
		}
		if got := snap(s); !reflect.DeepEqual(got, states[k-1]) {
			t.Fatalf("after undoing %q: %+v, want %+v", desc, got, states[k-1])
		}
	}
	if _, err := s.Undo(); !errors.Is(err, ErrNothingToUndo) {
		t.Errorf("undo at the start: %v", err)
	}
	if got := s.RedoList(); len(got) != len(cmds) || got[0] != descs[0] {
		t.Errorf("redo list %q", got)
	}
	for k := 1; k <= len(cmds); k++ {
		if _, err := s.Redo(); err != nil {
			t.Fatal(err)
		}
		if got := snap(s); !reflect.DeepEqual(got, states[k]) {
			t.Fatalf("after redo %d: %+v, want %+v", k, got, states[k])
		}
	}
	if _, err := s.Redo(); !errors.Is(err, ErrNothingToRedo) {
		t.Errorf("redo at the end: %v", err)
	}
	// A new command after undo clears the redo list.
	s.Undo()
	s.Undo()
	if err := s.Do(ctx, SetNote{"new"}, nil); err != nil {
		t.Fatal(err)
	}
	if n := len(s.RedoList()); n != 0 {
		t.Errorf("%d redo steps after a new command, want 0", n)
	}
}

func TestUndoDepth(t *testing.T) {
	ctx := context.Background()
	s := NewSentence(parse(t, manDog), Untouched)
	s.SetUndoDepth(3)
	for _, note := range []string{"a", "b", "c", "d", "e"} {
		if err := s.Do(ctx, SetNote{note}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(s.UndoList()); n != 3 {
		t.Fatalf("%d undo steps, want 3", n)
	}
	for range 3 {
		if _, err := s.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if s.Note() != "b" {
		t.Errorf("note %q after undoing all kept steps, want b", s.Note())
	}
	s.SetUndoDepth(1)
	if n := len(s.RedoList()); n != 1 {
		t.Errorf("%d redo steps after SetUndoDepth(1), want 1", n)
	}
}

func TestReparse(t *testing.T) {
	ctx := context.Background()
	rp := &fakeReparser{}
	start := parse(t, manDog)
	start.Tokens[1].Lemma, start.Tokens[1].Morph = "man", "sg"
	start.Nodes[0].Edge = "su" // NP "the man", parent S
	s := NewSentence(start, PreAnnotated)
	if err := s.Do(ctx, FixNode{0}, rp); err != nil { // not structural: no re-parse
		t.Fatal(err)
	}
	if rp.calls != 0 {
		t.Fatalf("FixNode called the reparser")
	}
	before := s.Tree().Clone()
	beforeState := snap(s)

	// Crossing NP[3,5) and VP[2,5): only a re-parse builds it.
	if err := s.Do(ctx, CreateConstituent{"X", []int{1, 2}}, nil); err == nil {
		t.Fatal("crossing constituent without a reparser: no error")
	}
	if err := s.Do(ctx, CreateConstituent{"X", []int{1, 2}}, rp); err == nil {
		t.Fatal("constituent crossing a fixed one: no error")
	}
	if err := s.Do(ctx, CreateConstituent{"X", []int{2, 3}}, rp); err != nil {
		t.Fatal(err)
	}
	if rp.calls != 1 {
		t.Fatalf("%d reparser calls, want 1", rp.calls)
	}
	if got := strs(rp.last); !reflect.DeepEqual(got, []string{"NP[0,2)", "X[2,4)"}) {
		t.Errorf("reparser required %q", got)
	}
	after := s.Tree().Clone()
	want := "(ROOT (FAKE (NP (DT 0=the) (NN 1=man)) (X (VB 2=saw) (DT 3=a)) (NN 4=dog) (. 5=.)))"
	if got := bracket(t, after); got != want {
		t.Errorf("re-parsed tree\n got %s\nwant %s", got, want)
	}
	// Token annotation is kept; the matched NP keeps its number but not its
	// function label, since its parent changed.
	np := node(t, after, "NP[0,2)")
	if tok := after.Tokens[1]; tok.Lemma != "man" || tok.Morph != "sg" {
		t.Errorf("token annotation lost: %+v", tok)
	}
	if nd := after.Nodes[np]; nd.Num != 500 || nd.Edge != "" {
		t.Errorf("NP after re-parse %+v, want number 500 and no function label", nd)
	}
	if err := after.Validate(); err != nil {
		t.Fatal(err)
	}

	// Undo restores the tree exactly, redo the re-parsed one without a
	// new call.
	if _, err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if d := sameTree(s.Tree(), before); d != "" {
		t.Fatalf("undo after re-parse:%s", d)
	}
	if got := snap(s); !reflect.DeepEqual(got, beforeState) {
		t.Errorf("undo after re-parse: state %+v, want %+v", got, beforeState)
	}
	if _, err := s.Redo(); err != nil {
		t.Fatal(err)
	}
	if d := sameTree(s.Tree(), after); d != "" {
		t.Fatalf("redo:%s", d)
	}
	if rp.calls != 1 {
		t.Errorf("redo called the reparser (%d calls)", rp.calls)
	}

	// Delete forbids the yield, and the re-parse must respect it.
	if err := s.Do(ctx, DeleteNode{node(t, s.Tree(), "FAKE[0,6)")}, rp); err != nil {
		t.Fatal(err)
	}
	if got := strs(s.Forbidden()); !reflect.DeepEqual(got, []string{"[0,6)"}) {
		t.Errorf("forbidden %q", got)
	}
	if got := bracket(t, s.Tree()); got != "(ROOT (NP (DT 0=the) (NN 1=man)) (X (VB 2=saw) (DT 3=a)) (NN 4=dog) (. 5=.))" {
		t.Errorf("after delete: %s", got)
	}
}

func TestReparseFailures(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		rp   *fakeReparser
		ctx  context.Context
		err  string
	}{
		{"reparser error", &fakeReparser{fail: errors.New("model not loaded")}, ctx, "re-parse: model not loaded"},
		{"missing fixed", &fakeReparser{dropAll: true}, ctx, "lacks fixed constituent DP[3,4)"},
		{"forbidden present", &fakeReparser{forbid: Yield{{Start: 3, End: 5}}}, ctx, "forbidden yield [3,5)"},
		{"cancelled", &fakeReparser{}, cancelled(), "context canceled"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSentence(parse(t, manDog), Untouched)
			if err := s.Do(ctx, DeleteNode{1}, nil); err != nil { // forbids [3,5)
				t.Fatal(err)
			}
			before := snap(s)
			err := s.Do(tc.ctx, CreateConstituent{"DP", []int{3}}, tc.rp)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want one containing %q", err, tc.err)
			}
			if got := snap(s); !reflect.DeepEqual(got, before) {
				t.Errorf("failed re-parse changed the sentence")
			}
			if n := len(s.UndoList()); n != 1 {
				t.Errorf("%d undo steps, want 1", n)
			}
		})
	}
}

func cancelled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// TestMerge checks what a re-parse keeps of the old tree.
func TestMerge(t *testing.T) {
	r := tree.Root
	old := &tree.Tree{ID: "s1", BOSExtra: "x",
		Tokens: []tree.Token{
			{Word: "a", Lemma: "A", Tag: "T", Morph: "m", Edge: "hd", Parent: 0, Comment: "c"},
			{Word: "b", Tag: "U", Edge: "mod", Parent: 1, Sec: []tree.SecEdge{{Label: "s", Parent: 0}, {Label: "r", Parent: r}, {Label: "z", Parent: 1}}},
			{Word: "c", Tag: "V", Edge: "--", Parent: r},
		},
		Nodes: []tree.Node{
			{Num: 600, Label: "A", Edge: "su", Parent: 1, Lemma: "l", Morph: "nm", Comment: "nc"},
			{Num: 601, Label: "B", Parent: r},
		}}
	got := &tree.Tree{
		Tokens: []tree.Token{{Word: "a", Tag: "X", Parent: 0}, {Word: "b", Parent: 2}, {Word: "c", Parent: 2}},
		Nodes: []tree.Node{
			{Num: 500, Label: "A", Parent: 1},
			{Num: 501, Label: "B", Parent: r},
			{Num: 600, Label: "C", Parent: 1},
		}}
	want := &tree.Tree{ID: "s1", BOSExtra: "x",
		Tokens: []tree.Token{
			{Word: "a", Lemma: "A", Tag: "T", Morph: "m", Edge: "hd", Parent: 0, Comment: "c"},
			{Word: "b", Tag: "U", Parent: 2, Sec: []tree.SecEdge{{Label: "s", Parent: 0}, {Label: "r", Parent: r}}},
			{Word: "c", Tag: "V", Parent: 2},
		},
		Nodes: []tree.Node{
			{Num: 600, Label: "A", Parent: 1, Lemma: "l", Morph: "nm", Comment: "nc"},
			{Num: 500, Label: "B", Parent: r},
			{Num: 501, Label: "C", Parent: 1},
		}}
	// B covered {0,1} in the old tree and covers {0,1,2} now: it is not
	// matched, so the secondary edge to it is dropped, it gets a free
	// number, and the function labels towards it (of A and b) are dropped.
	if d := sameTree(merge(old, got), want); d != "" {
		t.Error(d)
	}
}

func TestCorpusDo(t *testing.T) {
	ctx := context.Background()
	c := NewCorpus("c", []*tree.Tree{parse(t, manDog), parse(t, isRich)}, PreAnnotated)
	rp := &fakeReparser{}
	c.Reparser = rp
	if err := c.Do(ctx, 2, SetNote{"x"}); err == nil {
		t.Error("sentence out of range: no error")
	}
	if err := c.Do(ctx, 1, DeleteNode{1}); err != nil {
		t.Fatal(err)
	}
	if rp.calls != 1 {
		t.Errorf("%d reparser calls, want 1", rp.calls)
	}
	if err := c.Do(ctx, 0, SetStatus{Checked}); err != nil {
		t.Fatal(err)
	}
	if got, want := c.Counts(), [3]int{0, 1, 1}; got != want {
		t.Errorf("counts %v, want %v", got, want)
	}
	if c.Tree(1) != c.Trees()[1] || c.Tree(2) != nil {
		t.Error("Tree and Trees disagree")
	}
	// The corpus keeps copies of the trees it was given.
	tr := parse(t, manDog)
	c2 := NewCorpus("c", []*tree.Tree{tr}, Untouched)
	tr.Tokens[0].Word = "changed"
	if c2.Tree(0).Tokens[0].Word != "the" {
		t.Error("NewCorpus does not copy the trees")
	}
}
