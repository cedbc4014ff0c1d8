package treebank

import (
	"reflect"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

func TestReadPTB(t *testing.T) {
	dog := &tree.Tree{
		ID: "1",
		Tokens: []tree.Token{
			{Word: "the", Tag: "DT", Parent: 0},
			{Word: "dog", Tag: "NN", Parent: 0},
			{Word: "barks", Tag: "VBZ", Parent: 1},
		},
		Nodes: []tree.Node{
			{Num: 500, Label: "NP", Parent: 2},
			{Num: 501, Label: "VP", Parent: 2},
			{Num: 502, Label: "S", Parent: tree.Root},
		},
	}
	dogID := dog.Clone()
	dogID.ID = "X,.1"
	trace := &tree.Tree{
		ID: "1",
		Tokens: []tree.Token{
			{Word: "*pro*", Tag: "NP-SBJ", Parent: 0},
			{Word: "*T*-1", Tag: "-NONE-", Parent: 0},
			{Word: "(", Tag: "-LRB-", Parent: 0},
		},
		Nodes: []tree.Node{{Num: 500, Label: "IP-SUB=1", Parent: tree.Root}},
	}
	tests := []struct {
		name string
		text string
		want []*tree.Tree
	}{
		{"plain", "(S (NP (DT the) (NN dog)) (VP (VBZ barks)))", []*tree.Tree{dog}},
		{"wrapped", "( (S (NP (DT the) (NN dog)) (VP (VBZ barks))) )", []*tree.Tree{dog}},
		{"ROOT", "(ROOT (S (NP (DT the) (NN dog)) (VP (VBZ barks))))", []*tree.Tree{dog}},
		{"multi-line", "( (S\n\t(NP (DT the)\n\t    (NN dog))\n\t(VP (VBZ barks))))\n", []*tree.Tree{dog}},
		{"ID", "( (S (NP (DT the) (NN dog)) (VP (VBZ barks))) (ID X,.1))", []*tree.Tree{dogID}},
		{"traces", "( (IP-SUB=1 (NP-SBJ *pro*) (-NONE- *T*-1) (-LRB- #LRB#)))", []*tree.Tree{trace}},
		{"empty input", "", nil},
		{"white space only", " \n\t\n", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := mustRead(t, tc.text, PTB)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %v\nwant %v", got, tc.want)
			}
		})
	}
}

func TestReadPTBSeveral(t *testing.T) {
	got := mustRead(t, "(A (X a)) (B (Y b))\n(C\n(Z c))", PTB)
	var labels, ids []string
	for _, tr := range got {
		labels = append(labels, tr.Nodes[0].Label)
		ids = append(ids, tr.ID)
	}
	if want := []string{"A", "B", "C"}; !reflect.DeepEqual(labels, want) {
		t.Errorf("labels %v, want %v", labels, want)
	}
	if want := []string{"1", "2", "3"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("ids %v, want %v", ids, want)
	}
}
