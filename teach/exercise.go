package teach

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/chart/tree"
)

// Exercise asks the student to build the tree of a sentence.
type Exercise struct {
	ID     string
	Prompt string
	Gold   *tree.Tree
}

// Words returns the sentence the student analyses.
func (e Exercise) Words() []string { return e.Gold.Words() }

// Start returns the student's starting point: the words with their tags,
// every word attached to the virtual root and no phrase.
func (e Exercise) Start() *tree.Tree {
	t := &tree.Tree{ID: e.ID, Tokens: make([]tree.Token, len(e.Gold.Tokens))}
	for x, tok := range e.Gold.Tokens {
		t.Tokens[x] = tree.Token{Word: tok.Word, Tag: tok.Tag, Parent: tree.Root}
	}
	return t
}

// Exercises returns one exercise per gallery example.
func Exercises() ([]Exercise, error) {
	var out []Exercise
	for _, ex := range Gallery() {
		gold, err := ex.Tree()
		if err != nil {
			return nil, err
		}
		out = append(out, Exercise{
			ID:     ex.ID,
			Prompt: fmt.Sprintf("Build the tree of this %s sentence (%s).", ex.Language, strings.ToLower(ex.Title)),
			Gold:   gold,
		})
	}
	return out, nil
}

// ExerciseByID returns the exercise with the given id.
func ExerciseByID(id string) (Exercise, error) {
	all, err := Exercises()
	if err != nil {
		return Exercise{}, err
	}
	for _, e := range all {
		if e.ID == id {
			return e, nil
		}
	}
	return Exercise{}, fmt.Errorf("teach: no exercise %q", id)
}

// Verdict is the check of a student's tree against the gold tree,
// constituent by constituent.
type Verdict struct {
	// Right are the student's constituents that the gold tree has; Missing
	// the gold constituents the student lacks; Wrong the student's
	// constituents the gold tree lacks (a wrong label or wrong words).
	Right             []annotate.Constituent
	Missing, Wrong    []annotate.Constituent
	Precision, Recall float64
	F1                float64
	// Solved is set when the two trees have the same constituents.
	Solved bool
}

// Check compares the student's tree with the exercise's gold tree by
// labelled constituents (label and words covered, as evalb counts them).
func (e Exercise) Check(student *tree.Tree) (*Verdict, error) {
	if !slices.Equal(student.Words(), e.Gold.Words()) {
		return nil, errors.New("teach: the tree is not of the exercise's sentence")
	}
	d, err := annotate.Diff(e.Gold, student)
	if err != nil {
		return nil, fmt.Errorf("teach: check: %w", err)
	}
	yields := student.Yields()
	v := &Verdict{Missing: d.OnlyA, Wrong: d.OnlyB, Precision: d.Precision, Recall: d.Recall, F1: d.F1}
	for _, p := range d.Matched {
		v.Right = append(v.Right, annotate.Constituent{
			Label: student.Nodes[p.B].Label, Yield: annotate.YieldOf(yields[p.B]), Node: p.B})
	}
	v.Solved = len(d.OnlyA) == 0 && len(d.OnlyB) == 0
	return v, nil
}

// EncodeAttempt encodes an exercise and the student's tree for a URL
// fragment, so that an attempt can be shared and checked elsewhere.
func EncodeAttempt(id string, student *tree.Tree) (string, error) {
	if strings.ContainsAny(id, "~#&= ") || id == "" {
		return "", fmt.Errorf("teach: bad exercise id %q", id)
	}
	t, err := EncodeTree(student)
	if err != nil {
		return "", err
	}
	return id + "~" + t, nil
}

// DecodeAttempt reverses EncodeAttempt and checks that the tree belongs to
// the exercise.
func DecodeAttempt(s string) (Exercise, *tree.Tree, error) {
	id, enc, ok := strings.Cut(s, "~")
	if !ok {
		return Exercise{}, nil, errors.New("teach: shared attempt: not an exercise link")
	}
	e, err := ExerciseByID(id)
	if err != nil {
		return Exercise{}, nil, err
	}
	t, err := DecodeTree(enc)
	if err != nil {
		return Exercise{}, nil, err
	}
	if !slices.Equal(t.Words(), e.Gold.Words()) {
		return Exercise{}, nil, fmt.Errorf("teach: shared attempt: the tree is not of exercise %q's sentence", id)
	}
	return e, t, nil
}
