package annotate

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// editedDev imports the Alpino dev set and edits its sentence 4 with
// eight commands, then undoes three: a history with undo and redo steps.
// It returns the corpus and the states the edits went through.
func editedDev(t *testing.T) (*Corpus, []snapshot) {
	t.Helper()
	c, err := ImportFile(filepath.Join(dataDir(t), "alpino-cdb", "dev.export"), ImportOptions{Status: PreAnnotated})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Sentences[4]
	cmds := []Command{
		Relabel{0, "XP"},
		SetNote{"check the PP"},
		SetTag{2, "ADJ"},
		CreateConstituent{"NEW", []int{1, 2}},
		SetStatus{Checked},
		Relabel{1, "YP"},
		DeleteNode{1},
		SetNote{"done"},
	}
	states := []snapshot{snap(s)}
	for _, cmd := range cmds {
		if err := s.Do(context.Background(), cmd, nil); err != nil {
			t.Fatalf("%s: %v", cmd.Describe(s.Tree()), err)
		}
		states = append(states, snap(s))
	}
	for range 3 {
		if _, err := s.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	return c, states
}

// reloaded writes the corpus in the project format and reads it back, as
// a reload of the page does: the sentences come back without histories.
func reloaded(t *testing.T, c *Corpus) *Corpus {
	t.Helper()
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var back Corpus
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	return &back
}

// A history kept as JSON comes back on the reloaded sentence: the same
// undo and redo lists, every undo and redo giving the states the edits
// went through, and the current state's revision unchanged.
func TestHistoryKept(t *testing.T) {
	c, states := editedDev(t)
	s := c.Sentences[4]
	data, err := json.Marshal(s.History())
	if err != nil {
		t.Fatal(err)
	}
	back := reloaded(t, c).Sentences[4]
	if !back.History().Empty() {
		t.Fatal("a reloaded sentence has a history")
	}
	rev := back.Revision()
	if err := back.RestoreHistory(data); err != nil {
		t.Fatal(err)
	}
	if back.Revision() != rev {
		t.Error("restoring the history changed the current state")
	}
	if got, want := back.UndoList(), s.UndoList(); !slices.Equal(got, want) || len(got) != 5 {
		t.Errorf("undo list %q, want %q", got, want)
	}
	if got, want := back.RedoList(), s.RedoList(); !slices.Equal(got, want) || len(got) != 3 {
		t.Errorf("redo list %q, want %q", got, want)
	}
	for k := 5; k > 0; k-- {
		if _, err := back.Undo(); err != nil {
			t.Fatal(err)
		}
		if got := snap(back); !reflect.DeepEqual(got, states[k-1]) {
			t.Fatalf("undone to state %d: %+v, want %+v", k-1, got, states[k-1])
		}
	}
	for k := 1; k <= 8; k++ {
		if _, err := back.Redo(); err != nil {
			t.Fatal(err)
		}
		if got := snap(back); !reflect.DeepEqual(got, states[k]) {
			t.Fatalf("redone to state %d: %+v, want %+v", k, got, states[k])
		}
	}
	// Each state is written once: 9 states, 8 steps.
	var jh jsonHistory
	if err := json.Unmarshal(data, &jh); err != nil || len(jh.States) != 9 || len(jh.Undo)+len(jh.Redo) != 8 {
		t.Errorf("%d states, %d+%d steps (%v)", len(jh.States), len(jh.Undo), len(jh.Redo), err)
	}
	// The undo depth holds: the oldest steps go.
	short := reloaded(t, c).Sentences[4]
	short.SetUndoDepth(2)
	if err := short.RestoreHistory(data); err != nil {
		t.Fatal(err)
	}
	if got := short.UndoList(); !slices.Equal(got, s.UndoList()[:2]) {
		t.Errorf("depth 2: undo list %q", got)
	}
}

// A history that is not the sentence's, or damaged, is refused and
// changes nothing.
func TestHistoryRefused(t *testing.T) {
	c, _ := editedDev(t)
	data, err := json.Marshal(c.Sentences[4].History())
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(*jsonHistory)) []byte {
		var jh jsonHistory
		if err := json.Unmarshal(data, &jh); err != nil {
			t.Fatal(err)
		}
		f(&jh)
		b, err := json.Marshal(jh)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		name     string
		sentence int
		data     []byte
		want     string
	}{
		{"another sentence", 5, data, ErrStaleHistory.Error()},
		{"not JSON", 4, []byte("{"), "unexpected end"},
		{"a newer version", 4, edit(func(h *jsonHistory) { h.Version = HistoryVersion + 1 }), "version"},
		{"no current state", 4, edit(func(h *jsonHistory) { h.Current = len(h.States) }), "current state"},
		{"a step without its state", 4, edit(func(h *jsonHistory) { h.Undo[0].Before = 99 }), "names state 99"},
		{"undo steps out of order", 4, edit(func(h *jsonHistory) { h.Undo[0], h.Undo[1] = h.Undo[1], h.Undo[0] }), "does not lead"},
		{"redo steps out of order", 4, edit(func(h *jsonHistory) { h.Redo[0], h.Redo[1] = h.Redo[1], h.Redo[0] }), "does not follow"},
		{"a damaged state", 4, edit(func(h *jsonHistory) { h.States[1].Tree.Tokens[0].Parent = 9999 }), "state 1"},
		{"another sentence's state", 4, edit(func(h *jsonHistory) {
			h.States[1] = sentenceToJSON(c.Sentences[5].cur)
		}), "state 1 is sentence"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			restores := map[string]func(*Sentence) error{"whole": func(s *Sentence) error { return s.RestoreHistory(tc.data) }}
			// In parts too (RestoreHistoryParts), where the JSON is a
			// history of this version: each state's JSON apart.
			var jh jsonHistory
			if json.Unmarshal(tc.data, &jh) == nil && jh.Version == HistoryVersion {
				p := HistoryParts{Current: jh.Current, Undo: jh.Undo, Redo: jh.Redo}
				for _, st := range jh.States {
					b, err := json.Marshal(st)
					if err != nil {
						t.Fatal(err)
					}
					p.States = append(p.States, HistoryState{JSON: b})
				}
				restores["in parts"] = func(s *Sentence) error { return s.RestoreHistoryParts(p) }
			}
			for how, restore := range restores {
				s := reloaded(t, c).Sentences[tc.sentence]
				err := restore(s)
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s: error %v, want one saying %q", how, err, tc.want)
				}
				if tc.name == "another sentence" && !errors.Is(err, ErrStaleHistory) {
					t.Errorf("%s: error %v is not ErrStaleHistory", how, err)
				}
				if !s.History().Empty() {
					t.Errorf("%s: a refused history was restored", how)
				}
			}
		})
	}
	// A state that is not JSON, in parts.
	s := reloaded(t, c).Sentences[4]
	if err := s.RestoreHistoryParts(HistoryParts{States: []HistoryState{{JSON: []byte("{")}}}); err == nil || !strings.Contains(err.Error(), "state 0") {
		t.Errorf("a state that is not JSON: %v", err)
	}
}

// A HistoryEncoder writes what History.MarshalJSON writes, encoding each
// state once across calls (one more edit: one more state encoded), and
// forgets the states no history holds.
func TestHistoryEncoder(t *testing.T) {
	c, _ := editedDev(t)
	s := c.Sentences[4]
	var enc HistoryEncoder
	for round := range 2 {
		got, err := enc.Encode(s.History())
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(s.History())
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("round %d: the encoder wrote\n%s\nMarshalJSON\n%s", round, got, want)
		}
		if enc.Len() != 9 {
			t.Errorf("round %d: %d states kept, want 9", round, enc.Len())
		}
	}
	if err := s.Do(context.Background(), SetNote{"one more"}, nil); err != nil {
		t.Fatal(err)
	}
	// The edit drops the redo steps' states (3) and adds one.
	if _, err := enc.Encode(s.History()); err != nil || enc.Len() != 10 {
		t.Errorf("after an edit: %d states kept (%v)", enc.Len(), err)
	}
	enc.Retain(s.History())
	if enc.Len() != 7 {
		t.Errorf("retained %d states, want the history's 7", enc.Len())
	}
	enc.Retain()
	if enc.Len() != 0 {
		t.Errorf("retained %d states of no history", enc.Len())
	}
}

// A history's parts are its states, each with the SHA-256 of its JSON
// (one per distinct state), and its steps by number; put back together
// (HistoryParts.MarshalJSON) from copies of the states, as a store keeps
// them one by one, they restore the history on a reloaded sentence.
func TestHistoryParts(t *testing.T) {
	c, _ := editedDev(t)
	var enc HistoryEncoder
	p, err := enc.Parts(c.Sentences[4].History())
	if err != nil {
		t.Fatal(err)
	}
	if len(p.States) != 9 || len(p.Undo) != 5 || len(p.Redo) != 3 {
		t.Fatalf("%d states, %d undo and %d redo steps; want 9, 5, 3", len(p.States), len(p.Undo), len(p.Redo))
	}
	sums := map[[32]byte]bool{}
	copied := HistoryParts{Current: p.Current, Undo: p.Undo, Redo: p.Redo}
	for i, st := range p.States {
		if st.Sum != sha256.Sum256(st.JSON) {
			t.Errorf("state %d: the sum is not its JSON's", i)
		}
		sums[st.Sum] = true
		copied.States = append(copied.States, HistoryState{JSON: slices.Clone(st.JSON)})
	}
	if len(sums) != len(p.States) {
		t.Errorf("%d distinct sums of %d states", len(sums), len(p.States))
	}
	whole, err := json.Marshal(c.Sentences[4].History())
	if err != nil {
		t.Fatal(err)
	}
	data, err := copied.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != string(whole) {
		t.Fatalf("put together:\n%s\nwhole:\n%s", data, whole)
	}
	back := reloaded(t, c).Sentences[4]
	if err := back.RestoreHistory(data); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.UndoList(), c.Sentences[4].UndoList()) || !slices.Equal(back.RedoList(), c.Sentences[4].RedoList()) {
		t.Errorf("restored undo %q, redo %q", back.UndoList(), back.RedoList())
	}
	// The parts restore as they are (RestoreHistoryParts), to the same
	// history and the same states.
	parts := reloaded(t, c).Sentences[4]
	if err := parts.RestoreHistoryParts(copied); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(parts.UndoList(), back.UndoList()) || !slices.Equal(parts.RedoList(), back.RedoList()) {
		t.Errorf("restored in parts: undo %q, redo %q", parts.UndoList(), parts.RedoList())
	}
	for range len(back.UndoList()) {
		if _, err := back.Undo(); err != nil {
			t.Fatal(err)
		}
		if _, err := parts.Undo(); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(snap(parts), snap(back)) {
			t.Fatalf("undone in parts: %+v, whole: %+v", snap(parts), snap(back))
		}
	}
}
