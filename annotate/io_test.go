package annotate

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/treebank"
)

// TestImportExportData imports treebank files and exports them in their
// own format: the bytes must be those of the file. The export files are
// also taken through TIGER-XML and back.
func TestImportExportData(t *testing.T) {
	dir := dataDir(t)
	tests := []struct {
		file  string
		tiger bool // also through TIGER-XML (chart/treebank tests train)
	}{
		{"alpino-cdb/dev.export", true},
		{"alpino-cdb/dev.discbracket", false},
		{"alpino-cdb/test.punctmoved.discbracket", false},
		{"disco-dop-alpinosample/alpinosample.export", true},
		{"alpino-cdb/train.export", false},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			want, err := os.ReadFile(path)
			if err != nil {
				t.Skipf("skipping: %v", err)
			}
			var calls []Progress
			c, err := ImportFile(path, ImportOptions{Progress: func(p Progress) { calls = append(calls, p) }})
			if err != nil {
				t.Fatal(err)
			}
			f, _ := treebank.FormatOf(path)
			var buf bytes.Buffer
			if err := c.Export(&buf, f); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("exported file differs from %s", path)
			}
			// Progress: every ProgressEvery sentences and at the end, with
			// the byte count reaching the size.
			n := len(c.Sentences)
			if len(calls) != n/ProgressEvery+1 {
				t.Errorf("%d progress calls for %d sentences", len(calls), n)
			}
			if last := calls[len(calls)-1]; last.Sentences != n || last.Bytes != int64(len(want)) || last.Total != int64(len(want)) {
				t.Errorf("last progress %+v, want %d sentences and %d bytes", last, n, len(want))
			}
			if !tc.tiger {
				return
			}
			xmlPath := filepath.Join(t.TempDir(), "corpus.xml")
			if err := c.ExportFile(xmlPath); err != nil {
				t.Fatal(err)
			}
			back, err := ImportFile(xmlPath, ImportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			buf.Reset()
			if err := back.Export(&buf, treebank.Export); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("export -> TIGER-XML -> export differs from %s", path)
			}
		})
	}
}

func TestImportErrors(t *testing.T) {
	text := "#BOS 1\nx\n#EOS 1\n#BOS 2\na\t--\tT\t--\t--\t0\n#EOS 2\n"
	c, err := Import(strings.NewReader(text), "in.export", 0, ImportOptions{Format: treebank.Export, Status: PreAnnotated})
	var list treebank.ErrorList
	if !errors.As(err, &list) || len(list) != 1 || !strings.HasPrefix(list[0].Error(), "in.export:2: ") {
		t.Fatalf("error %v, want one parse error on line 2", err)
	}
	if c == nil || len(c.Sentences) != 1 || c.Sentences[0].ID() != "2" || c.Sentences[0].Status() != PreAnnotated {
		t.Fatalf("corpus %+v, want the good sentence", c)
	}
	// Reading goes on past any number of errors: every good sentence is
	// imported, the malformed ones and the stray text are counted, the
	// first errors listed.
	many := strings.Repeat("#BOS 1\nx\n#EOS 1\n", 20) + "stray\n" + text
	c, err = Import(strings.NewReader(many), "many", 0, ImportOptions{Format: treebank.Export})
	var ie *ImportError
	if !errors.As(err, &ie) || ie.Sentences != 21 || ie.Other != 1 || len(ie.First) != maxImportErrors || !errors.As(err, &list) {
		t.Errorf("error %v (%+v); want 21 malformed sentences and 1 other error, the first %d listed", err, ie, maxImportErrors)
	} else if msg := err.Error(); !strings.Contains(msg, "21 malformed sentences left out and 1 other error; first: many:2: ") {
		t.Errorf("error %q", msg)
	}
	if c == nil || len(c.Sentences) != 1 || c.Sentences[0].ID() != "2" {
		t.Errorf("corpus %+v; want the good sentence after the errors", c)
	}
	if _, err := Import(strings.NewReader(""), "x", 0, ImportOptions{Status: Status(9)}); err == nil {
		t.Error("invalid status: no error")
	}
	if _, err := ImportFile("x.txt", ImportOptions{}); err == nil || !strings.Contains(err.Error(), "unknown file extension") {
		t.Errorf("error %v, want unknown extension", err)
	}
	if _, err := ImportFile(filepath.Join(t.TempDir(), "missing.export"), ImportOptions{}); err == nil {
		t.Error("missing file: no error")
	}
	c = NewCorpus("c", nil, Untouched)
	if err := c.ExportFile(filepath.Join(t.TempDir(), "out.mrg")); err == nil {
		t.Error("export to a read-only format: no error")
	}
}

// An XML syntax error in a TIGER-XML import ends its reading: the error
// says so, and that the sentences after it were not read (it counted one
// left-out part, as if the rest had been imported).
func TestImportTigerStops(t *testing.T) {
	c, err := ImportFile(filepath.Join(dataDir(t), "alpino-cdb", "dev.export"), ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c.Sentences = c.Sentences[:5]
	var b strings.Builder
	if err := c.Export(&b, treebank.TigerXML); err != nil {
		t.Fatal(err)
	}
	// Break a word of the third sentence.
	xml := b.String()
	third := strings.Index(xml, `<s id="`+c.Sentences[2].ID()+`"`)
	at := third + strings.Index(xml[third:], `word="`) + len(`word="`)
	broken := xml[:at] + "x<y" + xml[at:]
	line := strings.Count(broken[:at], "\n") + 1
	got, err := Import(strings.NewReader(broken), "broken.xml", 0, ImportOptions{Format: treebank.TigerXML})
	var ie *ImportError
	if !errors.As(err, &ie) || ie.Stopped == nil || !strings.Contains(err.Error(), fmt.Sprintf("reading stopped at line %d", line)) || !strings.Contains(err.Error(), "the sentences after it were not read") {
		t.Fatalf("error %v", err)
	}
	if len(got.Sentences) != 2 {
		t.Errorf("%d sentences imported, want the 2 before the error", len(got.Sentences))
	}
}
