package annotate

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

// The test sentence: node 0 NP[0,2), 1 NP[3,5), 2 VP[2,5), 3 S[0,5); the
// full stop hangs from the root.
const manDog = "(ROOT (S (NP (DT 0=the) (NN 1=man)) (VP (VB 2=saw) (NP (DT 3=a) (NN 4=dog)))) (. 5=.))"

// A discontinuous VP: node 0 VP[0,1)+[2,3), 1 NP[1,2), 2 S[0,4).
const isRich = "(ROOT (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) (? 3=?)))"

// node returns the index of the node that Fixed.String would write as
// key ("NP[0,2)"), or fails the test.
func node(t testing.TB, tr *tree.Tree, key string) int {
	t.Helper()
	for i, y := range tr.Yields() {
		if (Fixed{tr.Nodes[i].Label, YieldOf(y)}).String() == key {
			return i
		}
	}
	t.Fatalf("no node %s in %s", key, bracket(t, tr))
	return -1
}

func strs[T interface{ String() string }](xs []T) []string {
	var out []string
	for _, x := range xs {
		out = append(out, x.String())
	}
	return out
}

func TestCommands(t *testing.T) {
	tests := []struct {
		name      string
		start     string
		prep      func(t *tree.Tree) []Command // applied first
		cmd       func(t *tree.Tree) Command
		want      string   // the tree after; "" to leave it unchecked
		fixed     []string // fixed constituents after
		forbidden []string // forbidden yields after
		err       string   // part of the error; "" for success
		noChange  bool     // the error is ErrNoChange
	}{
		{name: "create inside a node", start: manDog,
			cmd:   func(*tree.Tree) Command { return CreateConstituent{"DP", []int{3}} },
			want:  "(ROOT (S (NP (DT 0=the) (NN 1=man)) (VP (VB 2=saw) (NP (DP (DT 3=a)) (NN 4=dog)))) (. 5=.))",
			fixed: []string{"DP[3,4)"}},
		{name: "create over a node and a word", start: "(ROOT (S (NP (DT 0=the) (NN 1=man)) (VB 2=saw) (NP (DT 3=a) (NN 4=dog))) (. 5=.))",
			cmd:   func(*tree.Tree) Command { return CreateConstituent{"X", []int{1, 0, 2, 0}} },
			want:  "(ROOT (S (X (NP (DT 0=the) (NN 1=man)) (VB 2=saw)) (NP (DT 3=a) (NN 4=dog))) (. 5=.))",
			fixed: []string{"X[0,3)"}},
		{name: "create above a node with the same words", start: manDog,
			cmd:   func(*tree.Tree) Command { return CreateConstituent{"X", []int{4, 3, 2, 3}} },
			want:  "(ROOT (S (NP (DT 0=the) (NN 1=man)) (X (VP (VB 2=saw) (NP (DT 3=a) (NN 4=dog))))) (. 5=.))",
			fixed: []string{"X[2,5)"}},
		{name: "create at the root", start: manDog,
			cmd:   func(*tree.Tree) Command { return CreateConstituent{"TOP", []int{0, 1, 2, 3, 4, 5}} },
			want:  "(ROOT (TOP (S (NP (DT 0=the) (NN 1=man)) (VP (VB 2=saw) (NP (DT 3=a) (NN 4=dog)))) (. 5=.)))",
			fixed: []string{"TOP[0,6)"}},
		{name: "create with a gap above a node with the same words", start: isRich,
			cmd:   func(*tree.Tree) Command { return CreateConstituent{"X", []int{0, 2}} },
			want:  "(ROOT (S (X (VP (VB 0=is) (JJ 2=rich))) (NP 1=John) (? 3=?)))",
			fixed: []string{"X[0,1)+[2,3)"}},
		{name: "create an existing constituent fixes it", start: manDog,
			cmd:   func(*tree.Tree) Command { return CreateConstituent{"NP", []int{0, 1}} },
			want:  manDog,
			fixed: []string{"NP[0,2)"}},
		{name: "create a fixed constituent again", start: manDog,
			prep:     func(tr *tree.Tree) []Command { return []Command{FixNode{0}} },
			cmd:      func(*tree.Tree) Command { return CreateConstituent{"NP", []int{0, 1}} },
			err:      "exists and is fixed",
			noChange: true},
		{name: "create three blocks", start: manDog,
			cmd: func(*tree.Tree) Command { return CreateConstituent{"X", []int{0, 2, 4}} },
			err: "has 3 blocks; a constituent may be continuous or have one gap"},
		{name: "create crossing a node", start: manDog,
			cmd: func(*tree.Tree) Command { return CreateConstituent{"X", []int{1, 2}} },
			err: "crosses node 0 (NP [0,2)); only a re-parse can build it"},
		{name: "create crossing a fixed constituent", start: manDog,
			prep: func(tr *tree.Tree) []Command { return []Command{FixNode{node(t, tr, "VP[2,5)")}} },
			cmd:  func(*tree.Tree) Command { return CreateConstituent{"X", []int{1, 2}} },
			err:  "crosses fixed constituent VP[2,5)"},
		{name: "create empty label", start: manDog,
			cmd: func(*tree.Tree) Command { return CreateConstituent{"", []int{0}} },
			err: "empty label"},
		{name: "create label with space", start: manDog,
			cmd: func(*tree.Tree) Command { return CreateConstituent{"N P", []int{0}} },
			err: "white space"},
		{name: "create no words", start: manDog,
			cmd: func(*tree.Tree) Command { return CreateConstituent{"X", nil} },
			err: "no words"},
		{name: "create word out of range", start: manDog,
			cmd: func(*tree.Tree) Command { return CreateConstituent{"X", []int{5, 6}} },
			err: "word 6 out of range"},
		{name: "create removes the yield from the forbidden set", start: manDog,
			prep: func(tr *tree.Tree) []Command {
				return []Command{DeleteNode{node(t, tr, "NP[0,2)")}}
			},
			cmd:   func(*tree.Tree) Command { return CreateConstituent{"NP", []int{0, 1}} },
			want:  manDog,
			fixed: []string{"NP[0,2)"}},

		{name: "relabel fixes the node", start: manDog,
			cmd:   func(tr *tree.Tree) Command { return Relabel{node(t, tr, "NP[3,5)"), "DP"} },
			want:  "(ROOT (S (NP (DT 0=the) (NN 1=man)) (VP (VB 2=saw) (DP (DT 3=a) (NN 4=dog)))) (. 5=.))",
			fixed: []string{"DP[3,5)"}},
		{name: "relabel a fixed node", start: manDog,
			prep:  func(tr *tree.Tree) []Command { return []Command{FixNode{0}, FixNode{3}} },
			cmd:   func(*tree.Tree) Command { return Relabel{0, "DP"} },
			fixed: []string{"S[0,5)", "DP[0,2)"}},
		{name: "relabel same", start: manDog,
			cmd:      func(*tree.Tree) Command { return Relabel{0, "NP"} },
			noChange: true, err: "labelled NP"},
		{name: "relabel out of range", start: manDog,
			cmd: func(*tree.Tree) Command { return Relabel{4, "X"} },
			err: "node 4 out of range (4 nodes)"},

		{name: "delete", start: manDog,
			cmd:       func(tr *tree.Tree) Command { return DeleteNode{node(t, tr, "NP[3,5)")} },
			want:      "(ROOT (S (NP (DT 0=the) (NN 1=man)) (VP (VB 2=saw) (DT 3=a) (NN 4=dog))) (. 5=.))",
			forbidden: []string{"[3,5)"}},
		{name: "delete a fixed node", start: manDog,
			prep:      func(tr *tree.Tree) []Command { return []Command{FixNode{node(t, tr, "S[0,5)")}, FixNode{0}} },
			cmd:       func(tr *tree.Tree) Command { return DeleteNode{node(t, tr, "S[0,5)")} },
			want:      "(ROOT (NP (DT 0=the) (NN 1=man)) (VP (VB 2=saw) (NP (DT 3=a) (NN 4=dog))) (. 5=.))",
			fixed:     []string{"NP[0,2)"},
			forbidden: []string{"[0,5)"}},
		{name: "delete in a unary chain forbids nothing", start: "(ROOT (S (NP (NN 0=a) (NN 1=b))))",
			cmd:  func(tr *tree.Tree) Command { return DeleteNode{node(t, tr, "NP[0,2)")} },
			want: "(ROOT (S (NN 0=a) (NN 1=b)))"},
		{name: "delete out of range", start: manDog,
			cmd: func(*tree.Tree) Command { return DeleteNode{-2} },
			err: "node -2 out of range"},

		{name: "reattach a word fixes the parent", start: manDog,
			cmd:   func(tr *tree.Tree) Command { return Reattach{WordRef(5), node(t, tr, "S[0,5)")} },
			want:  "(ROOT (S (NP (DT 0=the) (NN 1=man)) (VP (VB 2=saw) (NP (DT 3=a) (NN 4=dog))) (. 5=.)))",
			fixed: []string{"S[0,6)"}},
		{name: "reattach a node fixes it and the parent", start: manDog,
			cmd:   func(tr *tree.Tree) Command { return Reattach{NodeRef(0), node(t, tr, "VP[2,5)")} },
			want:  "(ROOT (S (VP (NP (DT 0=the) (NN 1=man)) (VB 2=saw) (NP (DT 3=a) (NN 4=dog)))) (. 5=.))",
			fixed: []string{"VP[0,5)", "NP[0,2)"}},
		{name: "reattach to the root", start: manDog,
			cmd:   func(*tree.Tree) Command { return Reattach{WordRef(0), tree.Root} },
			want:  "(ROOT (DT 0=the) (S (NP (NN 1=man)) (VP (VB 2=saw) (NP (DT 3=a) (NN 4=dog)))) (. 5=.))",
			fixed: nil},
		{name: "reattach changes a fixed constituent", start: manDog,
			prep:  func(tr *tree.Tree) []Command { return []Command{FixNode{node(t, tr, "NP[0,2)")}} },
			cmd:   func(*tree.Tree) Command { return Reattach{WordRef(1), tree.Root} },
			fixed: []string{"NP[0,1)"}},
		{name: "reattach would give a fixed constituent three blocks", start: manDog,
			prep: func(tr *tree.Tree) []Command {
				return []Command{FixNode{node(t, tr, "S[0,5)")}, Reattach{WordRef(1), tree.Root}}
			},
			cmd: func(*tree.Tree) Command { return Reattach{WordRef(3), tree.Root} },
			err: "would give fixed constituent S[0,1)+[2,3)+[4,5) 3 blocks"},
		{name: "reattach the only word of a node removes the node", start: "(ROOT (S (NP (NN 0=John)) (VP (VB 1=sleeps))) (. 2=.))",
			cmd:   func(tr *tree.Tree) Command { return Reattach{WordRef(1), node(t, tr, "S[0,2)")} },
			want:  "(ROOT (S (NP (NN 0=John)) (VB 1=sleeps)) (. 2=.))",
			fixed: []string{"S[0,2)"}},
		{name: "reattach removes the ancestors left over no word", start: "(ROOT (S (NP (NN 0=John)) (VP (VX (VB 1=sleeps)))) (. 2=.))",
			cmd:   func(tr *tree.Tree) Command { return Reattach{WordRef(1), node(t, tr, "NP[0,1)")} },
			want:  "(ROOT (S (NP (NN 0=John) (VB 1=sleeps))) (. 2=.))",
			fixed: []string{"NP[0,2)"}},
		{name: "reattach cycle", start: manDog,
			cmd: func(tr *tree.Tree) Command { return Reattach{NodeRef(node(t, tr, "S[0,5)")), node(t, tr, "NP[3,5)")} },
			err: "would make a cycle"},
		{name: "reattach to itself", start: manDog,
			cmd: func(*tree.Tree) Command { return Reattach{NodeRef(0), 0} },
			err: "would make a cycle"},
		{name: "reattach same parent", start: manDog,
			cmd:      func(*tree.Tree) Command { return Reattach{WordRef(0), 0} },
			noChange: true, err: "already attached"},
		{name: "reattach bad parent", start: manDog,
			cmd: func(*tree.Tree) Command { return Reattach{WordRef(0), 9} },
			err: "node 9 out of range"},
		{name: "reattach bad word", start: manDog,
			cmd: func(*tree.Tree) Command { return Reattach{WordRef(6), 0} },
			err: "word 6 out of range"},

		{name: "tag", start: manDog,
			cmd:  func(*tree.Tree) Command { return SetTag{1, "NNS"} },
			want: "(ROOT (S (NP (DT 0=the) (NNS 1=man)) (VP (VB 2=saw) (NP (DT 3=a) (NN 4=dog)))) (. 5=.))"},
		{name: "tag same", start: manDog,
			cmd:      func(*tree.Tree) Command { return SetTag{1, "NN"} },
			noChange: true, err: "tagged NN"},
		{name: "tag with space", start: manDog,
			cmd: func(*tree.Tree) Command { return SetTag{1, "N N"} },
			err: "white space"},
		{name: "tag --", start: manDog,
			cmd: func(*tree.Tree) Command { return SetTag{1, "--"} },
			err: `tag "--" stands for no tag`},
		{name: "label starting a comment", start: manDog,
			cmd: func(*tree.Tree) Command { return Relabel{0, "%%NP"} },
			err: "starts a comment in export files"},
		{name: "edge with a NUL byte", start: manDog,
			cmd: func(*tree.Tree) Command { return SetEdge{NodeRef(0), "su\x00"} },
			err: "not text"},
		{name: "edge same", start: manDog,
			cmd:      func(*tree.Tree) Command { return SetEdge{NodeRef(0), ""} },
			noChange: true, err: "same function label"},
		{name: "note same", start: manDog,
			cmd:      func(*tree.Tree) Command { return SetNote{""} },
			noChange: true},
		{name: "status same", start: manDog,
			cmd:      func(*tree.Tree) Command { return SetStatus{Untouched} },
			noChange: true},
		{name: "status invalid", start: manDog,
			cmd: func(*tree.Tree) Command { return SetStatus{Status(7)} },
			err: "invalid status 7"},

		{name: "fix", start: manDog,
			cmd:   func(tr *tree.Tree) Command { return FixNode{node(t, tr, "VP[2,5)")} },
			want:  manDog,
			fixed: []string{"VP[2,5)"}},
		{name: "fix twice", start: manDog,
			prep:     func(*tree.Tree) []Command { return []Command{FixNode{1}} },
			cmd:      func(*tree.Tree) Command { return FixNode{1} },
			noChange: true, err: "is fixed"},
		{name: "fix three blocks", start: "(ROOT (S (A 0=a) (B 1=b) (C 2=c) (D 3=d) (E 4=e)))",
			prep: func(tr *tree.Tree) []Command {
				return []Command{Reattach{WordRef(1), tree.Root}, Reattach{WordRef(3), tree.Root}}
			},
			cmd: func(*tree.Tree) Command { return FixNode{0} },
			err: "node 0 has 3 blocks"},
		{name: "unfix", start: manDog,
			prep:  func(*tree.Tree) []Command { return []Command{FixNode{1}, FixNode{0}} },
			cmd:   func(*tree.Tree) Command { return UnfixNode{1} },
			fixed: []string{"NP[0,2)"}},
		{name: "unfix not fixed", start: manDog,
			cmd:      func(*tree.Tree) Command { return UnfixNode{1} },
			noChange: true, err: "not fixed"},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSentence(parse(t, tc.start), Untouched)
			if tc.prep != nil {
				for _, c := range tc.prep(s.Tree()) {
					if err := s.Do(ctx, c, nil); err != nil {
						t.Fatalf("prep %s: %v", c.Describe(s.Tree()), err)
					}
				}
			}
			before := s.Tree().Clone()
			beforeFixed, beforeUndo := s.Fixed(), len(s.UndoList())
			err := s.Do(ctx, tc.cmd(s.Tree()), nil)
			if tc.err != "" || tc.noChange {
				if err == nil || !strings.Contains(err.Error(), tc.err) || errors.Is(err, ErrNoChange) != tc.noChange {
					t.Fatalf("error %v, want one containing %q (no change: %v)", err, tc.err, tc.noChange)
				}
				if d := sameTree(s.Tree(), before); d != "" || !reflect.DeepEqual(s.Fixed(), beforeFixed) || len(s.UndoList()) != beforeUndo {
					t.Errorf("failed command changed the sentence%s", d)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != "" {
				if got := bracket(t, s.Tree()); got != tc.want {
					t.Errorf("tree\n got %s\nwant %s", got, tc.want)
				}
			}
			if got := strs(s.Fixed()); !reflect.DeepEqual(got, tc.fixed) {
				t.Errorf("fixed %q, want %q", got, tc.fixed)
			}
			if got := strs(s.Forbidden()); !reflect.DeepEqual(got, tc.forbidden) {
				t.Errorf("forbidden %q, want %q", got, tc.forbidden)
			}
			if err := s.Tree().Validate(); err != nil {
				t.Errorf("invalid tree after the command: %v", err)
			}
		})
	}
}

// TestDeleteRemapsIndices checks that deleting a node keeps the other
// fields: node numbers, function labels, secondary edges (those to the
// deleted node are dropped).
// TestFixEmptyNode: a node over no word (which an imported or saved tree
// may hold; edits no longer leave one) cannot be fixed.
func TestFixEmptyNode(t *testing.T) {
	tr := &tree.Tree{
		Tokens: []tree.Token{{Word: "a", Parent: tree.Root}},
		Nodes:  []tree.Node{{Label: "S", Parent: tree.Root}},
	}
	s := NewSentence(tr, Untouched)
	if err := s.Do(t.Context(), FixNode{0}, nil); err == nil || !strings.Contains(err.Error(), "covers no word") {
		t.Errorf("error %v; want one saying the node covers no word", err)
	}
}

func TestDeleteRemapsIndices(t *testing.T) {
	r := tree.Root
	tr := &tree.Tree{ID: "x",
		Tokens: []tree.Token{
			{Word: "a", Edge: "hd", Parent: 0, Sec: []tree.SecEdge{{Label: "s1", Parent: 1}, {Label: "s2", Parent: 2}}},
			{Word: "b", Edge: "mod", Parent: 1},
		},
		Nodes: []tree.Node{
			{Num: 500, Label: "A", Edge: "x", Parent: 1},
			{Num: 501, Label: "B", Edge: "y", Parent: 2, Sec: []tree.SecEdge{{Label: "s3", Parent: r}}},
			{Num: 502, Label: "C", Parent: r},
		}}
	s := NewSentence(tr, Untouched)
	if err := s.Do(context.Background(), DeleteNode{1}, nil); err != nil {
		t.Fatal(err)
	}
	want := &tree.Tree{ID: "x",
		Tokens: []tree.Token{
			{Word: "a", Edge: "hd", Parent: 0, Sec: []tree.SecEdge{{Label: "s2", Parent: 1}}},
			{Word: "b", Edge: "mod", Parent: 1},
		},
		Nodes: []tree.Node{
			{Num: 500, Label: "A", Edge: "x", Parent: 1},
			{Num: 502, Label: "C", Parent: r},
		}}
	if d := sameTree(s.Tree(), want); d != "" {
		t.Error(d)
	}
	// A new node gets the smallest free number.
	if err := s.Do(context.Background(), CreateConstituent{"N", []int{1}}, nil); err != nil {
		t.Fatal(err)
	}
	if got := s.Tree().Nodes[2]; got.Num != 501 || got.Label != "N" {
		t.Errorf("new node %+v, want number 501", got)
	}
}

func TestSetEdgeNoteStatus(t *testing.T) {
	ctx := context.Background()
	s := NewSentence(parse(t, manDog), PreAnnotated)
	for _, c := range []Command{SetEdge{WordRef(1), "hd"}, SetEdge{NodeRef(0), "su"}, SetNote{"check PP"}, SetStatus{Checked}} {
		if err := s.Do(ctx, c, nil); err != nil {
			t.Fatalf("%T: %v", c, err)
		}
	}
	tr := s.Tree()
	if tr.Tokens[1].Edge != "hd" || tr.Nodes[0].Edge != "su" || s.Note() != "check PP" || s.Status() != Checked {
		t.Errorf("got edge %q, %q, note %q, status %v", tr.Tokens[1].Edge, tr.Nodes[0].Edge, s.Note(), s.Status())
	}
}

func TestDescribe(t *testing.T) {
	tr := parse(t, manDog)
	long := parse(t, "(ROOT (S (A 0=a) (A 1=b) (A 2=c) (A 3=d) (A 4=e) (A 5=f) (A 6=g) (A 7=h) (A 8=i) (A 9=j)))")
	tests := []struct {
		tree *tree.Tree
		cmd  Command
		want string
	}{
		{tr, CreateConstituent{"X", []int{4, 0, 1}}, `Create X over "the man … dog"`},
		{tr, Relabel{0, "DP"}, `Relabel NP "the man" as DP`},
		{tr, DeleteNode{1}, `Delete NP "a dog"`},
		{tr, DeleteNode{17}, `Delete node 17`},
		{tr, Reattach{WordRef(5), 3}, `Attach "." to S "the man saw a dog"`},
		{tr, Reattach{NodeRef(0), tree.Root}, `Attach NP "the man" to the root`},
		{tr, Reattach{WordRef(9), 3}, `Attach word 9 to S "the man saw a dog"`},
		{tr, SetTag{1, "NNS"}, `Tag "man" as NNS`},
		{tr, SetEdge{NodeRef(0), ""}, `Function of NP "the man": --`},
		{tr, SetNote{"x"}, "Edit note"},
		{tr, SetNote{""}, "Clear note"},
		{tr, SetStatus{Checked}, "Mark as checked"},
		{tr, FixNode{2}, `Fix VP "saw a dog"`},
		{tr, UnfixNode{2}, `Unfix VP "saw a dog"`},
		{long, FixNode{0}, `Fix S "a b c d e f g h …"`},
	}
	for _, tc := range tests {
		if got := tc.cmd.Describe(tc.tree); got != tc.want {
			t.Errorf("%T: got %q, want %q", tc.cmd, got, tc.want)
		}
	}
}

func TestStatus(t *testing.T) {
	for _, s := range []Status{Untouched, PreAnnotated, Checked} {
		b, err := s.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Status
		if err := back.UnmarshalText(b); err != nil || back != s {
			t.Errorf("%v: read back %v, %v", s, back, err)
		}
	}
	if _, err := ParseStatus("done"); err == nil {
		t.Error("ParseStatus(done): no error")
	}
	if _, err := Status(5).MarshalText(); err == nil {
		t.Error("MarshalText of an invalid status: no error")
	}
	if got := Status(5).String(); got != "Status(5)" {
		t.Errorf("String() = %q", got)
	}
}

func TestYield(t *testing.T) {
	y := YieldOf([]int{0, 1, 3})
	tests := []struct {
		name string
		got  any
		want any
	}{
		{"string", y.String(), "[0,2)+[3,4)"},
		{"positions", y.Positions(), []int{0, 1, 3}},
		{"len", y.Len(), 3},
		{"contains", y.contains(YieldOf([]int{1, 3})), true},
		{"not contains", y.contains(YieldOf([]int{1, 2})), false},
		{"intersects", y.intersects(YieldOf([]int{2, 3})), true},
		{"disjoint", y.intersects(YieldOf([]int{2, 4})), false},
		{"crosses", y.crosses(YieldOf([]int{2, 3})), true},
		{"inside does not cross", y.crosses(YieldOf([]int{0})), false},
		{"check ok", y.check(4), error(nil)},
	}
	for _, tc := range tests {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	for _, bad := range []Yield{nil, {{Start: 2, End: 2}}, {{Start: 0, End: 9}}, {{Start: 2, End: 3}, {Start: 0, End: 1}}, {{Start: 0, End: 1}, {Start: 1, End: 2}}} {
		if err := bad.check(5); err == nil {
			t.Errorf("check(%v): no error", bad)
		}
	}
}

// TestForbiddenRules checks when forbidden yields are dropped: when an
// edit makes them the yield of a node, not when an unrelated edit is made
// to a sentence that already violates them.
func TestForbiddenRules(t *testing.T) {
	ctx := context.Background()
	tr := parse(t, manDog)
	s := &Sentence{cur: &state{tree: tr, forbidden: []Yield{{{Start: 3, End: 5}}, {{Start: 0, End: 1}}}}, depth: DefaultUndoDepth}
	if err := s.Do(ctx, SetNote{"x"}, nil); err != nil {
		t.Fatal(err)
	}
	if got := strs(s.Forbidden()); !reflect.DeepEqual(got, []string{"[0,1)", "[3,5)"}) {
		t.Errorf("after an unrelated edit: forbidden %q", got)
	}
	// Word 1 leaves NP "the man": the NP now covers [0,1).
	if err := s.Do(ctx, Reattach{WordRef(1), node(t, tr, "VP[2,5)")}, nil); err != nil {
		t.Fatal(err)
	}
	if got := strs(s.Forbidden()); !reflect.DeepEqual(got, []string{"[3,5)"}) {
		t.Errorf("after the edit: forbidden %q", got)
	}
}

// A constituent crossing a node, without a re-parser, fails with a
// CrossingError that names both, so that the app can say what to do.
func TestCrossingError(t *testing.T) {
	s := NewSentence(parse(t, manDog), Untouched)
	err := s.Do(context.Background(), CreateConstituent{"X", []int{1, 2}}, nil)
	var ce *CrossingError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v is not a CrossingError", err)
	}
	if ce.Label != "X" || ce.Yield.String() != "[1,3)" || ce.NodeLabel != "NP" || ce.NodeYield.String() != "[0,2)" || ce.Node != node(t, s.Tree(), "NP[0,2)") {
		t.Errorf("crossing error %+v", ce)
	}
	if err := s.Do(context.Background(), CreateConstituent{"X", []int{1, 2}}, &fakeReparser{}); errors.As(err, &ce) {
		t.Errorf("with a re-parser: %v", err)
	}
}
