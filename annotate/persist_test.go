package annotate

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

// sameCorpus reports the first difference between the saved parts of two
// corpora.
func sameCorpus(t *testing.T, got, want *Corpus) {
	t.Helper()
	if got.Name != want.Name || len(got.Sentences) != len(want.Sentences) {
		t.Fatalf("corpus %q with %d sentences, want %q with %d", got.Name, len(got.Sentences), want.Name, len(want.Sentences))
	}
	for i := range got.Sentences {
		g, w := snap(got.Sentences[i]), snap(want.Sentences[i])
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("sentence %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
}

// TestSaveLoadData saves the Alpino dev set with some annotation work and
// loads it back: trees (secondary edges, lemmas, morphology, node numbers
// included), statuses, notes, fixed and forbidden sets survive.
func TestSaveLoadData(t *testing.T) {
	c, err := ImportFile(filepath.Join(dataDir(t), "alpino-cdb", "dev.export"), ImportOptions{Status: PreAnnotated})
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	ctx := context.Background()
	rp := &fakeReparser{}
	edits := []struct {
		sent int
		cmd  Command
		rp   Reparser
	}{
		{0, SetStatus{Checked}, nil},
		{0, SetNote{"PP attachment: \"op\" — check\nsecond line"}, nil},
		{1, FixNode{0}, nil},
		{1, DeleteNode{1}, nil},
		{2, CreateConstituent{"X", []int{0, 1}}, rp},
		{3, Relabel{0, "DP"}, nil},
	}
	for _, e := range edits {
		s := c.Sentences[e.sent]
		if err := s.Do(ctx, e.cmd, e.rp); err != nil {
			t.Fatalf("sentence %d: %s: %v", e.sent, e.cmd.Describe(s.Tree()), err)
		}
	}
	path := filepath.Join(t.TempDir(), "dev.json")
	if err := c.SaveFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sameCorpus(t, back, c)
	if n := len(back.Sentences[0].UndoList()); n != 0 {
		t.Errorf("loaded sentence has %d undo steps", n)
	}
	// The secondary edges of the data are there.
	sec := 0
	for _, s := range back.Sentences {
		for _, tok := range s.Tree().Tokens {
			sec += len(tok.Sec)
		}
	}
	if sec == 0 {
		t.Error("no secondary edges after loading")
	}
	// Saving again gives the same bytes.
	var a, b bytes.Buffer
	if err := c.Save(&a); err != nil {
		t.Fatal(err)
	}
	if err := back.Save(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("saving the loaded corpus gives other bytes")
	}

	// A snapshot saves as the corpus did when it was taken, whatever is
	// edited afterwards, and has no undo history.
	snapshot := c.Snapshot()
	if err := c.Sentences[0].Do(ctx, SetNote{"changed after the snapshot"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Sentences[4].Do(ctx, DeleteNode{0}, nil); err != nil {
		t.Fatal(err)
	}
	var sb bytes.Buffer
	if err := snapshot.Save(&sb); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sb.Bytes(), a.Bytes()) {
		t.Error("the snapshot saves other bytes than the corpus when it was taken")
	}
	if len(snapshot.Sentences[0].UndoList()) != 0 || snapshot.Sentences[0].Note() == c.Sentences[0].Note() {
		t.Error("the snapshot follows the corpus's edits, or has its history")
	}
}

func TestLoadErrors(t *testing.T) {
	good := `{"format":"discspan-annotate","version":1,"sentences":[` +
		`{"tree":{"id":"1","tokens":[{"word":"a","parent":0},{"word":"b","parent":-1}],"nodes":[{"num":500,"label":"S","parent":-1}]},"status":"checked",` +
		`"fixed":[{"label":"S","blocks":[[0,1]]}],"forbidden":[[[0,2]]]}]}`
	c, err := Load(strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	s := c.Sentences[0]
	if s.Status() != Checked || len(s.Fixed()) != 1 || len(s.Forbidden()) != 1 || s.Tree().Nodes[0].Num != 500 {
		t.Errorf("loaded %+v", snap(s))
	}
	tests := []struct {
		name, old, new, msg string
	}{
		{"not JSON", good, "{", "unexpected end"},
		{"other format", `"discspan-annotate"`, `"x"`, `not a discspan-annotate file (format "x")`},
		{"newer version", `"version":1`, `"version":2`, "version 2 not supported"},
		{"bad status", `"checked"`, `"done"`, `unknown status "done"`},
		{"bad parent", `"parent":0}`, `"parent":3}`, "sentence 1 (id \"1\"): token 0: parent index 3 out of range"},
		{"cycle", `"parent":-1}]}`, `"parent":0}]}`, "cycle"},
		{"bad fixed blocks", `[[0,1]]}]`, `[[1,0]]}]`, "fixed constituent S: empty block"},
		{"three blocks", `"tokens":[{"word":"a","parent":0},{"word":"b","parent":-1}]`,
			`"tokens":[{"word":"a","parent":0},{"word":"b","parent":-1},{"word":"c","parent":-1},{"word":"d","parent":-1},{"word":"e","parent":-1}]`, ""},
		{"forbidden out of range", `[[[0,2]]]`, `[[[0,9]]]`, "forbidden yield: block [0,9) out of range"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := strings.Replace(good, tc.old, tc.new, 1)
			if tc.name == "three blocks" {
				text = strings.Replace(text, `[[0,1]]}]`, `[[0,1],[2,3],[4,5]]}]`, 1)
				tc.msg = "3 blocks (at most 2)"
			}
			_, err := Load(strings.NewReader(text))
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %v, want one containing %q", err, tc.msg)
			}
		})
	}
	if _, err := LoadFile(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("missing file: no error")
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte("[]"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFile(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("error %v, want one naming the file", err)
	}
}

// TestSaveEmptyFields checks that trees with empty and odd fields survive.
func TestSaveEmptyFields(t *testing.T) {
	tr := &tree.Tree{ID: "", BOSExtra: "x y",
		Tokens: []tree.Token{{Word: "", Parent: tree.Root, Sec: []tree.SecEdge{{Label: "", Parent: tree.Root}}, Comment: "c"}},
		Nodes:  []tree.Node{{Label: "", Parent: tree.Root, Sec: []tree.SecEdge{{Label: "l", Parent: 0}}}},
	}
	c := NewCorpus("", []*tree.Tree{tr, {ID: "empty"}}, Untouched)
	var buf bytes.Buffer
	if err := c.Save(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Load(&buf)
	if err != nil {
		t.Fatal(err)
	}
	sameCorpus(t, back, c)
}

// TestLoadPartsData keeps the Alpino dev set in pieces, as the app's store
// does: the sentences encoded one by one and joined in parts load back as
// the whole corpus did, and revisions say which sentences changed.
func TestLoadPartsData(t *testing.T) {
	c, err := ImportFile(filepath.Join(dataDir(t), "alpino-cdb", "dev.export"), ImportOptions{Status: PreAnnotated})
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	ctx := context.Background()
	if err := c.Sentences[1].Do(ctx, SetNote{"a note"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Sentences[2].Do(ctx, FixNode{0}, nil); err != nil {
		t.Fatal(err)
	}
	// Parts of 7 sentences, the last one shorter.
	var parts [][]byte
	var counts []int
	for from := 0; from < len(c.Sentences); from += 7 {
		to := min(from+7, len(c.Sentences))
		part := []byte{'['}
		for i, s := range c.Sentences[from:to] {
			if i > 0 {
				part = append(part, ',')
			}
			b, err := s.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			part = append(part, b...)
		}
		parts, counts = append(parts, append(part, ']')), append(counts, to-from)
	}
	back, err := LoadParts(c.Name, parts, counts)
	if err != nil {
		t.Fatal(err)
	}
	sameCorpus(t, back, c)
	if _, err := LoadParts(c.Name, parts, nil); err != nil {
		t.Errorf("without counts: %v", err)
	}

	// Errors: a count that does not match, a damaged part, a bad sentence
	// (named by its number in the whole corpus).
	badCounts := append([]int{8}, counts[1:]...)
	if _, err := LoadParts(c.Name, parts, badCounts); err == nil || !strings.Contains(err.Error(), "part 1 holds 7 sentences, want 8") {
		t.Errorf("wrong count: %v", err)
	}
	damaged := append([][]byte{}, parts...)
	damaged[1] = damaged[1][:len(damaged[1])/2]
	if _, err := LoadParts(c.Name, damaged, counts); err == nil || !strings.Contains(err.Error(), "part 2") {
		t.Errorf("damaged part: %v", err)
	}
	bad := append([][]byte{}, parts...)
	bad[1] = bytes.Replace(bad[1], []byte(`"status":"pre-annotated"`), []byte(`"status":"lost"`), 1)
	if _, err := LoadParts(c.Name, bad, counts); err == nil || !strings.Contains(err.Error(), "unknown status") {
		t.Errorf("bad status: %v", err)
	}
	bad[1] = bytes.Replace(parts[1], []byte(`"parent":`), []byte(`"parent":99,"x":`), 1)
	if _, err := LoadParts(c.Name, bad, counts); err == nil || !strings.Contains(err.Error(), "sentence 8 ") {
		t.Errorf("bad tree in part 2: %v", err)
	}

	// Revisions: shared by snapshots, changed by an edit, back by an undo.
	s := c.Sentences[3]
	before := s.Revision()
	if c.Snapshot().Sentences[3].Revision() != before {
		t.Error("a snapshot has another revision")
	}
	if err := s.Do(ctx, SetStatus{Checked}, nil); err != nil {
		t.Fatal(err)
	}
	if s.Revision() == before {
		t.Error("an edit keeps the revision")
	}
	if _, err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if s.Revision() != before {
		t.Error("an undo does not return to the revision before the edit")
	}
	if c.Sentences[4].Revision() == before {
		t.Error("two sentences share a revision")
	}
}
