package annotate

import (
	"reflect"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

// where is the part of a Problem that tests compare.
type where struct {
	Kind       ProblemKind
	Node, Word int
}

func wheres(ps []Problem) []where {
	var out []where
	for _, p := range ps {
		out = append(out, where{p.Kind, p.Node, p.Word})
	}
	return out
}

func TestValidateTree(t *testing.T) {
	r := tree.Root
	cycle := &tree.Tree{
		Tokens: []tree.Token{{Word: "a", Parent: 2}},
		Nodes:  []tree.Node{{Label: "A", Parent: 1}, {Label: "B", Parent: 0}, {Label: "C", Parent: 0}},
	}
	badParent := &tree.Tree{
		Tokens: []tree.Token{{Word: "a", Parent: 7}, {Word: "b", Parent: 0, Sec: []tree.SecEdge{{Parent: -5}}}},
		Nodes:  []tree.Node{{Label: "X", Parent: r}},
	}
	empty := &tree.Tree{
		Tokens: []tree.Token{{Word: "a", Parent: 0}},
		Nodes:  []tree.Node{{Label: "S", Parent: r}, {Label: "E", Parent: 0}},
	}
	known := map[string]bool{"S": true, "NP": true}
	tests := []struct {
		name  string
		tree  *tree.Tree
		maxBD int
		known map[string]bool
		want  []where
	}{
		{"clean", parse(t, manDog), 2, nil, nil},
		{"unknown label", parse(t, manDog), 2, known, []where{{UnknownLabel, 2, -1}}},
		{"unattached word", parse(t, "(ROOT (S (NP 0=a) (VB 1=b)) (NN 2=c) (, 3=,) (let 4=x) (X 5=!))"), 0, nil, []where{{UnattachedWord, -1, 2}}},
		{"no structure", parse(t, "(ROOT (A 0=a) (B 1=b))"), 0, nil, nil},
		{"block degree", parse(t, isRich), 1, nil, []where{{BlockDegree, 0, -1}}},
		{"block degree allowed", parse(t, isRich), 2, nil, nil},
		{"empty node", empty, 0, known, []where{{EmptyNode, 1, -1}, {UnknownLabel, 1, -1}}},
		{"cycle", cycle, 0, nil, []where{{Cycle, 0, -1}, {Cycle, 1, -1}}},
		{"bad parent", badParent, 0, known, []where{{BadParent, -1, 0}, {BadParent, -1, 1}, {UnknownLabel, 0, -1}}},
		// Export cannot hold these; discbracket and TIGER-XML can.
		{"word #1", parse(t, "(ROOT (S (NN 0=Hij) (VB 1=belt) (NN 2=#1)))"), 0, nil, []where{{Unwritable, -1, -1}}},
		{"word #BOS", parse(t, "(ROOT (S (NN 0=#BOS) (VB 1=x)))"), 0, nil, []where{{Unwritable, -1, -1}}},
		{"label %%", &tree.Tree{Tokens: []tree.Token{{Word: "a", Parent: 0}}, Nodes: []tree.Node{{Label: "%%S", Parent: r}}}, 0, nil, []where{{Unwritable, -1, -1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			probs := ValidateTree(tc.tree, tc.maxBD, tc.known)
			if got := wheres(probs); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("problems %v, want %v (%q)", got, tc.want, probs)
			}
			for _, p := range probs {
				if p.Msg == "" || p.String() != p.Msg || p.Kind.String() == "" {
					t.Errorf("problem %+v without a message", p)
				}
				if p.Kind == Unwritable && !strings.HasPrefix(p.Msg, "cannot be exported as export: ") {
					t.Errorf("problem %q; want it to name the export format", p.Msg)
				}
			}
		})
	}
}

func TestValidateSentence(t *testing.T) {
	tr := parse(t, manDog)
	s := &Sentence{cur: &state{tree: tr,
		fixed:     []Fixed{{"NP", Yield{{Start: 0, End: 2}}}, {"PP", Yield{{Start: 1, End: 3}}}},
		forbidden: []Yield{{{Start: 3, End: 5}}},
	}, depth: DefaultUndoDepth}
	want := []where{{MissingFixed, -1, -1}, {ForbiddenPresent, 1, -1}}
	if got := wheres(Validate(s, 2, nil)); !reflect.DeepEqual(got, want) {
		t.Errorf("problems %v, want %v", got, want)
	}
	if got := ProblemKind(99).String(); got != "ProblemKind(99)" {
		t.Errorf("String() = %q", got)
	}
}

// TestValidateData checks the definitions on the Alpino data: in the raw
// export files punctuation hangs from the root and is exempt, and the
// block degrees are those of STATS.txt.
func TestValidateData(t *testing.T) {
	c, err := ImportFile(dataDir(t)+"/alpino-cdb/dev.export", ImportOptions{})
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	counts := map[ProblemKind]int{}
	for _, s := range c.Sentences {
		for _, p := range Validate(s, 0, nil) {
			counts[p.Kind]++
		}
	}
	if len(counts) != 0 {
		t.Errorf("problems in dev.export without limits: %v", counts)
	}
}
