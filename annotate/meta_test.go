package annotate

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/treebank"
)

// TestExportKeepsStatusAndNotes: a corpus exported in each format and
// imported back keeps every sentence's status and note (notes with spaces,
// line breaks, "&", "%" and non-ASCII text), the trees and their comments
// as they were (a comment of the file's own is kept beside the field), and
// exported again gives the same bytes; a comment that only looks like the
// field stays a comment.
func TestExportKeepsStatusAndNotes(t *testing.T) {
	path := filepath.Join(dataDir(t), "alpino-cdb", "dev.export")
	src, err := ImportFile(path, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	src.Sentences = src.Sentences[:40]
	src.Sentences[3].cur.tree.BOSExtra = "2 899993242 1" // editor, date, origin
	src.Sentences[7].cur.tree.BOSExtra = "discspan:status=approved"
	src.Sentences[5].cur.tree.BOSExtra = "7 %% a comment of the file's"
	notes := map[int]string{1: "te controleren", 3: "zie p. 3 & 4\nregel twee: 100% «zeker»", 8: "discspan:status=checked"}
	statuses := map[int]Status{1: Checked, 2: PreAnnotated, 3: Checked, 5: Checked}
	for i, n := range notes {
		if err := src.Sentences[i].Do(context.Background(), SetNote{n}, nil); err != nil {
			t.Fatal(err)
		}
	}
	for i, st := range statuses {
		if err := src.Sentences[i].Do(context.Background(), SetStatus{st}, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []treebank.Format{treebank.Export, treebank.Discbracket, treebank.TigerXML} {
		t.Run(f.String(), func(t *testing.T) {
			var first bytes.Buffer
			if err := src.Export(&first, f); err != nil {
				t.Fatal(err)
			}
			back, err := Import(bytes.NewReader(first.Bytes()), "back", 0, ImportOptions{Format: f})
			if err != nil {
				t.Fatal(err)
			}
			if len(back.Sentences) != len(src.Sentences) {
				t.Fatalf("%d sentences back, want %d", len(back.Sentences), len(src.Sentences))
			}
			for i, s := range back.Sentences {
				if s.Status() != statuses[i] || s.Note() != notes[i] {
					t.Errorf("sentence %d: status %v note %q, want %v %q", i, s.Status(), s.Note(), statuses[i], notes[i])
				}
				if got, want := s.Tree().BOSExtra, src.Sentences[i].Tree().BOSExtra; got != want {
					t.Errorf("sentence %d: comment %q, want %q", i, got, want)
				}
			}
			var again bytes.Buffer
			if err := back.Export(&again, f); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again.Bytes(), first.Bytes()) {
				t.Errorf("exported again, the %v file differs", f)
			}
			if f == treebank.Export && !strings.Contains(first.String(), "#BOS cdb-5726 2 899993242 1 %% discspan:note=zie+p.+3+%26+4%0Aregel") {
				t.Errorf("sentence 3's #BOS line: %q", strings.SplitN(first.String()[strings.Index(first.String(), "#BOS cdb-5726"):], "\n", 2)[0])
			}
		})
	}
}
