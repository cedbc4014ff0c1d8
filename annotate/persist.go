package annotate

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/internal/atomicfile"
)

// The JSON project format: FormatName and FormatVersion are written in
// every file, and Load refuses other names and newer versions.
const (
	FormatName    = "discspan-annotate"
	FormatVersion = 1
)

// The JSON form of a corpus. Every field of the trees is kept; parent
// indices are as in chart/tree (-1 for the virtual root). Blocks are
// [start, end) pairs of interstice indices.
type (
	jsonCorpus struct {
		Format    string         `json:"format"`
		Version   int            `json:"version"`
		Name      string         `json:"name,omitempty"`
		Sentences []jsonSentence `json:"sentences"`
	}
	jsonSentence struct {
		Tree      jsonTree    `json:"tree"`
		Status    Status      `json:"status"`
		Note      string      `json:"note,omitempty"`
		Edited    bool        `json:"edited,omitempty"`
		Fixed     []jsonFixed `json:"fixed,omitempty"`
		Forbidden [][][2]int  `json:"forbidden,omitempty"`
	}
	jsonFixed struct {
		Label  string   `json:"label"`
		Blocks [][2]int `json:"blocks"`
	}
	jsonTree struct {
		ID       string      `json:"id"`
		BOSExtra string      `json:"bos_extra,omitempty"`
		Tokens   []jsonToken `json:"tokens"`
		Nodes    []jsonNode  `json:"nodes,omitempty"`
	}
	jsonToken struct {
		Word    string    `json:"word"`
		Lemma   string    `json:"lemma,omitempty"`
		Tag     string    `json:"tag,omitempty"`
		Morph   string    `json:"morph,omitempty"`
		Edge    string    `json:"edge,omitempty"`
		Parent  int       `json:"parent"`
		Sec     []jsonSec `json:"sec,omitempty"`
		Comment string    `json:"comment,omitempty"`
	}
	jsonNode struct {
		Num     int       `json:"num,omitempty"`
		Label   string    `json:"label"`
		Lemma   string    `json:"lemma,omitempty"`
		Morph   string    `json:"morph,omitempty"`
		Edge    string    `json:"edge,omitempty"`
		Parent  int       `json:"parent"`
		Sec     []jsonSec `json:"sec,omitempty"`
		Comment string    `json:"comment,omitempty"`
	}
	jsonSec struct {
		Label  string `json:"label,omitempty"`
		Parent int    `json:"parent"`
	}
)

// MarshalJSON writes the corpus in the versioned project format: name,
// and for every sentence its current tree (every field), status, note,
// fixed constituents and forbidden yields. The undo history is not
// written.
func (c *Corpus) MarshalJSON() ([]byte, error) {
	jc := jsonCorpus{Format: FormatName, Version: FormatVersion, Name: c.Name, Sentences: make([]jsonSentence, len(c.Sentences))}
	for i, s := range c.Sentences {
		jc.Sentences[i] = sentenceToJSON(s.cur)
	}
	return json.Marshal(jc)
}

func sentenceToJSON(st *state) jsonSentence {
	js := jsonSentence{Tree: treeToJSON(st.tree), Status: st.status, Note: st.note, Edited: st.edited}
	for _, f := range st.fixed {
		js.Fixed = append(js.Fixed, jsonFixed{f.Label, blocksToJSON(f.Yield)})
	}
	for _, y := range st.forbidden {
		js.Forbidden = append(js.Forbidden, blocksToJSON(y))
	}
	return js
}

// MarshalJSON writes the sentence's current state as one element of the
// "sentences" of the project format (without its undo history).
func (s *Sentence) MarshalJSON() ([]byte, error) { return json.Marshal(sentenceToJSON(s.cur)) }

// Revision identifies the current state of a sentence. Every edit, undo
// and redo gives the sentence another revision (an undo returns to the
// revision before the edit), and a snapshot (Corpus.Snapshot) shares its
// sentences' revisions. Equal revisions mean equal content, so a revision
// can key a cache of encoded sentences.
type Revision struct{ st *state }

// Revision returns the revision of the sentence's current state.
func (s *Sentence) Revision() Revision { return Revision{s.cur} }

// LoadParts reads a corpus named name from parts, each a JSON array of
// sentences as Sentence.MarshalJSON writes them, in order: a project kept
// in pieces. When counts is not nil, part i must hold counts[i]
// sentences. It checks what UnmarshalJSON checks; an error names the
// sentence by its number in the whole corpus.
func LoadParts(name string, parts [][]byte, counts []int) (*Corpus, error) {
	if counts != nil && len(counts) != len(parts) {
		return nil, fmt.Errorf("annotate: %d parts, %d counts", len(parts), len(counts))
	}
	l := NewPartsLoader(name)
	for i, part := range parts {
		n := -1
		if counts != nil {
			n = counts[i]
		}
		if err := l.Add(part, n); err != nil {
			return nil, err
		}
	}
	return l.Corpus(), nil
}

// PartsLoader reads a corpus kept in parts one part at a time (as
// LoadParts does), so that the caller can report progress, or let other
// work run, between parts.
type PartsLoader struct {
	c     *Corpus
	parts int
}

// NewPartsLoader returns a loader of a corpus named name, empty so far.
func NewPartsLoader(name string) *PartsLoader { return &PartsLoader{c: &Corpus{Name: name}} }

// Add reads the next part; when count is not negative, the part must hold
// count sentences. After an error the loader should not be used.
func (l *PartsLoader) Add(part []byte, count int) error {
	l.parts++
	var js []jsonSentence
	if err := json.Unmarshal(part, &js); err != nil {
		return fmt.Errorf("annotate: part %d: %w", l.parts, err)
	}
	if count >= 0 && len(js) != count {
		return fmt.Errorf("annotate: part %d holds %d sentences, want %d", l.parts, len(js), count)
	}
	for _, j := range js {
		s, err := sentenceFromJSON(j)
		if err != nil {
			return fmt.Errorf("annotate: sentence %d (id %q): %w", len(l.c.Sentences)+1, j.Tree.ID, err)
		}
		l.c.Sentences = append(l.c.Sentences, s)
	}
	return nil
}

// AddCopies appends sentences in the current states of ss (a part read
// before, say), without their histories: the states are shared, as
// Snapshot shares them, which is safe since a state never changes.
func (l *PartsLoader) AddCopies(ss []*Sentence) {
	l.parts++
	for _, s := range ss {
		l.c.Sentences = append(l.c.Sentences, &Sentence{cur: s.cur, depth: DefaultUndoDepth})
	}
}

// Corpus returns the corpus read so far.
func (l *PartsLoader) Corpus() *Corpus { return l.c }

// UnmarshalJSON reads the project format. It checks the format name and
// version, the trees (parent indices, cycles), statuses, and the blocks of
// fixed and forbidden yields; an error names the sentence. The sentences
// have no undo history; the Reparser is kept.
func (c *Corpus) UnmarshalJSON(data []byte) error {
	var jc jsonCorpus
	if err := json.Unmarshal(data, &jc); err != nil {
		return fmt.Errorf("annotate: %w", err)
	}
	switch {
	case jc.Format != FormatName:
		return fmt.Errorf("annotate: not a %s file (format %q)", FormatName, jc.Format)
	case jc.Version < 1 || jc.Version > FormatVersion:
		return fmt.Errorf("annotate: %s version %d not supported (want 1..%d)", FormatName, jc.Version, FormatVersion)
	}
	sents := make([]*Sentence, len(jc.Sentences))
	for i, js := range jc.Sentences {
		s, err := sentenceFromJSON(js)
		if err != nil {
			return fmt.Errorf("annotate: sentence %d (id %q): %w", i+1, js.Tree.ID, err)
		}
		sents[i] = s
	}
	c.Name, c.Sentences = jc.Name, sents
	return nil
}

func sentenceFromJSON(js jsonSentence) (*Sentence, error) {
	t := treeFromJSON(js.Tree)
	if err := t.Validate(); err != nil {
		return nil, err
	}
	if !js.Status.valid() {
		return nil, fmt.Errorf("invalid status %d", int(js.Status))
	}
	st := &state{tree: t, status: js.Status, note: js.Note, edited: js.Edited}
	n := len(t.Tokens)
	for _, jf := range js.Fixed {
		y := blocksFromJSON(jf.Blocks)
		if err := y.check(n); err != nil {
			return nil, fmt.Errorf("fixed constituent %s: %w", jf.Label, err)
		}
		if len(y) > MaxFixedBlocks {
			return nil, fmt.Errorf("fixed constituent %s: %d blocks (at most %d)", Fixed{jf.Label, y}, len(y), MaxFixedBlocks)
		}
		st.fixed = append(st.fixed, Fixed{jf.Label, y})
	}
	for _, jb := range js.Forbidden {
		y := blocksFromJSON(jb)
		if err := y.check(n); err != nil {
			return nil, fmt.Errorf("forbidden yield: %w", err)
		}
		st.forbidden = append(st.forbidden, y)
	}
	sortFixed(st.fixed)
	sortYields(st.forbidden)
	return &Sentence{cur: st, depth: DefaultUndoDepth}, nil
}

func blocksToJSON(y Yield) [][2]int {
	out := make([][2]int, len(y))
	for i, b := range y {
		out[i] = [2]int{b.Start, b.End}
	}
	return out
}

func blocksFromJSON(b [][2]int) Yield {
	y := make(Yield, len(b))
	for i, s := range b {
		y[i] = tree.Span{Start: s[0], End: s[1]}
	}
	return y
}

func secToJSON(sec []tree.SecEdge) []jsonSec {
	var out []jsonSec
	for _, s := range sec {
		out = append(out, jsonSec{s.Label, s.Parent})
	}
	return out
}

func secFromJSON(sec []jsonSec) []tree.SecEdge {
	var out []tree.SecEdge
	for _, s := range sec {
		out = append(out, tree.SecEdge{Label: s.Label, Parent: s.Parent})
	}
	return out
}

func treeToJSON(t *tree.Tree) jsonTree {
	jt := jsonTree{ID: t.ID, BOSExtra: t.BOSExtra, Tokens: make([]jsonToken, len(t.Tokens))}
	for i, tok := range t.Tokens {
		jt.Tokens[i] = jsonToken{tok.Word, tok.Lemma, tok.Tag, tok.Morph, tok.Edge, tok.Parent, secToJSON(tok.Sec), tok.Comment}
	}
	for _, nd := range t.Nodes {
		jt.Nodes = append(jt.Nodes, jsonNode{nd.Num, nd.Label, nd.Lemma, nd.Morph, nd.Edge, nd.Parent, secToJSON(nd.Sec), nd.Comment})
	}
	return jt
}

// treeFromJSON builds a tree; empty lists are nil, as the treebank readers
// leave them.
func treeFromJSON(jt jsonTree) *tree.Tree {
	t := &tree.Tree{ID: jt.ID, BOSExtra: jt.BOSExtra}
	for _, tok := range jt.Tokens {
		t.Tokens = append(t.Tokens, tree.Token{Word: tok.Word, Lemma: tok.Lemma, Tag: tok.Tag, Morph: tok.Morph, Edge: tok.Edge,
			Parent: tok.Parent, Sec: secFromJSON(tok.Sec), Comment: tok.Comment})
	}
	for _, nd := range jt.Nodes {
		t.Nodes = append(t.Nodes, tree.Node{Num: nd.Num, Label: nd.Label, Lemma: nd.Lemma, Morph: nd.Morph, Edge: nd.Edge,
			Parent: nd.Parent, Sec: secFromJSON(nd.Sec), Comment: nd.Comment})
	}
	return t
}

// Save writes the corpus as JSON (see MarshalJSON).
func (c *Corpus) Save(w io.Writer) error {
	data, err := c.MarshalJSON()
	if err != nil {
		return err
	}
	if _, err := w.Write(append(data, '\n')); err != nil {
		return fmt.Errorf("annotate: save: %w", err)
	}
	return nil
}

// Load reads a corpus saved with Save.
func Load(r io.Reader) (*Corpus, error) {
	data, err := io.ReadAll(bufio.NewReader(r))
	if err != nil {
		return nil, fmt.Errorf("annotate: load: %w", err)
	}
	c := &Corpus{}
	if err := c.UnmarshalJSON(data); err != nil {
		return nil, err
	}
	return c, nil
}

// SaveFile saves the corpus to path, replacing the file atomically.
func (c *Corpus) SaveFile(path string) error {
	return atomicfile.Write(path, c.Save)
}

// LoadFile loads a corpus saved with SaveFile; errors name the file.
func LoadFile(path string) (*Corpus, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("annotate: %w", err)
	}
	defer f.Close()
	c, err := Load(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}
