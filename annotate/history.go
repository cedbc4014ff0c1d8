package annotate

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// History is a sentence's undo and redo history at one moment (see
// Sentence.History): later edits of the sentence do not change it. It is
// kept across visits as JSON (MarshalJSON, Sentence.RestoreHistory).
type History struct {
	cur        *state
	undo, redo []step
}

// History returns the sentence's undo and redo history as it is now. It
// copies two slices of pointers: the states are shared (a state never
// changes).
func (s *Sentence) History() History {
	return History{cur: s.cur, undo: append([]step(nil), s.undo...), redo: append([]step(nil), s.redo...)}
}

// Empty reports whether there is nothing to undo or redo.
func (h History) Empty() bool { return len(h.undo) == 0 && len(h.redo) == 0 }

// Same reports whether two histories are the same steps over the same
// current state (so that an encoding of one is one of the other).
func (h History) Same(o History) bool {
	return h.cur == o.cur && slices.Equal(h.undo, o.undo) && slices.Equal(h.redo, o.redo)
}

// HistoryVersion is the version of the history's JSON form.
const HistoryVersion = 1

// jsonHistory is the JSON form of a History: each state once (consecutive
// steps share one), the current one by its number, and the steps by their
// states' numbers, as the stacks hold them (the next one to undo or redo
// last).
type jsonHistory struct {
	Version int            `json:"version"`
	States  []jsonSentence `json:"states"`
	Current int            `json:"current"`
	Undo    []HistoryStep  `json:"undo,omitempty"`
	Redo    []HistoryStep  `json:"redo,omitempty"`
}

// HistoryStep is one undo or redo step of a history's JSON: what it did,
// and the numbers of the states it goes from and to.
type HistoryStep struct {
	Desc   string `json:"desc"`
	Before int    `json:"before"`
	After  int    `json:"after"`
}

// MarshalJSON writes the history: its states in the project format's
// sentence form and its steps. A HistoryEncoder writes the same, encoding
// each state once across calls.
func (h History) MarshalJSON() ([]byte, error) { return (&HistoryEncoder{}).Encode(h) }

// HistoryState is one state of a history as JSON, with the SHA-256 of
// that JSON (so that a store can keep each state once, by its digest).
type HistoryState struct {
	JSON json.RawMessage
	Sum  [sha256.Size]byte
}

// HistoryParts is a history's JSON in parts: each of its states once,
// and the steps and the current state by the states' numbers, as the
// stacks hold them (the next one to undo or redo last). Its MarshalJSON
// writes what History.MarshalJSON does, which Sentence.RestoreHistory
// reads.
type HistoryParts struct {
	States     []HistoryState
	Current    int
	Undo, Redo []HistoryStep
}

// jsonHistoryOut is jsonHistory with its states encoded already.
type jsonHistoryOut struct {
	Version int               `json:"version"`
	States  []json.RawMessage `json:"states"`
	Current int               `json:"current"`
	Undo    []HistoryStep     `json:"undo,omitempty"`
	Redo    []HistoryStep     `json:"redo,omitempty"`
}

// MarshalJSON writes the whole history.
func (p HistoryParts) MarshalJSON() ([]byte, error) {
	out := jsonHistoryOut{Version: HistoryVersion, States: make([]json.RawMessage, len(p.States)), Current: p.Current, Undo: p.Undo, Redo: p.Redo}
	for i, st := range p.States {
		out.States[i] = st.JSON
	}
	return json.Marshal(out)
}

// HistoryEncoder encodes histories as History.MarshalJSON does, keeping
// the JSON of each state it encoded and its digest (a state never
// changes): a history one edit longer than the last costs one state's
// encoding, not a hundred. Its zero value is ready; it is not safe for
// concurrent use.
type HistoryEncoder struct {
	states map[*state]HistoryState
}

// Encode returns h's JSON.
func (e *HistoryEncoder) Encode(h History) ([]byte, error) {
	p, err := e.Parts(h)
	if err != nil {
		return nil, err
	}
	return p.MarshalJSON()
}

// Parts returns h's JSON in parts.
func (e *HistoryEncoder) Parts(h History) (HistoryParts, error) {
	if e.states == nil {
		e.states = map[*state]HistoryState{}
	}
	var out HistoryParts
	number := map[*state]int{}
	var err error
	num := func(st *state) int {
		if n, ok := number[st]; ok {
			return n
		}
		enc, ok := e.states[st]
		if !ok {
			b, merr := json.Marshal(sentenceToJSON(st))
			if merr != nil {
				err = merr // not kept: the next call tries again
			} else {
				enc = HistoryState{JSON: b, Sum: sha256.Sum256(b)}
				e.states[st] = enc
			}
		}
		number[st] = len(out.States)
		out.States = append(out.States, enc)
		return number[st]
	}
	out.Current = num(h.cur)
	for _, st := range h.undo {
		out.Undo = append(out.Undo, HistoryStep{st.desc, num(st.before), num(st.after)})
	}
	for _, st := range h.redo {
		out.Redo = append(out.Redo, HistoryStep{st.desc, num(st.before), num(st.after)})
	}
	if err != nil {
		return HistoryParts{}, fmt.Errorf("annotate: history: %w", err)
	}
	return out, nil
}

// Retain forgets the encodings of the states that none of hs holds.
func (e *HistoryEncoder) Retain(hs ...History) {
	keep := map[*state]bool{}
	for _, h := range hs {
		keep[h.cur] = true
		for _, st := range slices.Concat(h.undo, h.redo) {
			keep[st.before], keep[st.after] = true, true
		}
	}
	for st := range e.states {
		if !keep[st] {
			delete(e.states, st)
		}
	}
}

// Len is the number of state encodings kept.
func (e *HistoryEncoder) Len() int { return len(e.states) }

// ErrStaleHistory is returned by RestoreHistory for a history kept when
// the sentence was in another state (it changed since, or the sentence at
// that place is another one).
var ErrStaleHistory = errors.New("annotate: the history was kept for another state of the sentence")

// RestoreHistory gives the sentence the undo and redo history that
// History.MarshalJSON wrote, provided the current state then is the
// sentence's now (else ErrStaleHistory). Every state is checked as a
// project's sentences are, and the steps must chain (each undo step
// starting where the one before ended, the last ending at the current
// state; likewise for redo). At most the sentence's undo depth of steps
// is kept, the oldest dropped. On error nothing changes.
func (s *Sentence) RestoreHistory(data []byte) error {
	var jh jsonHistory
	if err := json.Unmarshal(data, &jh); err != nil {
		return fmt.Errorf("annotate: history: %w", err)
	}
	if jh.Version < 1 || jh.Version > HistoryVersion {
		return fmt.Errorf("annotate: history version %d not supported (want 1..%d)", jh.Version, HistoryVersion)
	}
	return s.restoreHistory(jh.States, jh.Current, jh.Undo, jh.Redo)
}

// RestoreHistoryParts is RestoreHistory over a history in parts, as
// HistoryEncoder.Parts returns it (the digests are not read): a store that
// keeps each state apart restores a history without writing its JSON
// whole first.
func (s *Sentence) RestoreHistoryParts(p HistoryParts) error {
	states := make([]jsonSentence, len(p.States))
	for i, st := range p.States {
		if err := json.Unmarshal(st.JSON, &states[i]); err != nil {
			return fmt.Errorf("annotate: history: state %d: %w", i, err)
		}
	}
	return s.restoreHistory(states, p.Current, p.Undo, p.Redo)
}

// restoreHistory is RestoreHistory once the states are read.
func (s *Sentence) restoreHistory(jstates []jsonSentence, current int, jundo, jredo []HistoryStep) error {
	if current < 0 || current >= len(jstates) {
		return fmt.Errorf("annotate: history: current state %d of %d", current, len(jstates))
	}
	kept, err := json.Marshal(jstates[current])
	if err != nil {
		return fmt.Errorf("annotate: history: %w", err)
	}
	now, err := json.Marshal(sentenceToJSON(s.cur))
	if err != nil {
		return fmt.Errorf("annotate: history: %w", err)
	}
	if !bytes.Equal(kept, now) {
		return ErrStaleHistory
	}
	states := make([]*state, len(jstates))
	words := s.cur.tree.Words()
	for i, js := range jstates {
		if i == current {
			states[i] = s.cur // the same state: revisions stay equal
			continue
		}
		t, err := sentenceFromJSON(js)
		if err != nil {
			return fmt.Errorf("annotate: history: state %d: %w", i, err)
		}
		// No edit changes a sentence's id or words: a state with others
		// is another sentence's.
		if t.cur.tree.ID != s.cur.tree.ID || !slices.Equal(t.cur.tree.Words(), words) {
			return fmt.Errorf("annotate: history: state %d is sentence %q, not %q", i, t.cur.tree.ID, s.cur.tree.ID)
		}
		states[i] = t.cur
	}
	steps := func(js []HistoryStep, what string) ([]step, error) {
		out := make([]step, len(js))
		for i, j := range js {
			if j.Before < 0 || j.Before >= len(states) || j.After < 0 || j.After >= len(states) {
				return nil, fmt.Errorf("annotate: history: %s step %d names state %d or %d of %d", what, i, j.Before, j.After, len(states))
			}
			out[i] = step{desc: j.Desc, before: states[j.Before], after: states[j.After]}
		}
		return out, nil
	}
	undo, err := steps(jundo, "undo")
	if err != nil {
		return err
	}
	redo, err := steps(jredo, "redo")
	if err != nil {
		return err
	}
	// The stacks chain to the current state: undoing runs undo from its
	// end back, redoing runs redo from its end back.
	for i := range undo {
		next := s.cur
		if i+1 < len(undo) {
			next = undo[i+1].before
		}
		if undo[i].after != next {
			return fmt.Errorf("annotate: history: undo step %d does not lead to the next", i)
		}
	}
	for i := range redo {
		prev := s.cur
		if i+1 < len(redo) {
			prev = redo[i+1].after
		}
		if redo[i].before != prev {
			return fmt.Errorf("annotate: history: redo step %d does not follow the next", i)
		}
	}
	s.undo, s.redo = undo, redo
	s.SetUndoDepth(s.depth)
	return nil
}
