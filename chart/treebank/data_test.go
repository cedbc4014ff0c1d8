package treebank

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestDataRoundTrip reads every data file and writes it back: the bytes
// must be identical.
func TestDataRoundTrip(t *testing.T) {
	dir := dataDir(t)
	tests := []struct {
		name  string
		file  string
		trees int
	}{
		{"alpino train export", "alpino-cdb/train.export", 5708},
		{"alpino dev export", "alpino-cdb/dev.export", 714},
		{"alpino test export", "alpino-cdb/test.export", 714},
		{"alpino train discbracket", "alpino-cdb/train.discbracket", 5708},
		{"alpino dev discbracket", "alpino-cdb/dev.discbracket", 714},
		{"alpino test discbracket", "alpino-cdb/test.discbracket", 714},
		{"alpino train punctmoved", "alpino-cdb/train.punctmoved.discbracket", 5708},
		{"alpino dev punctmoved", "alpino-cdb/dev.punctmoved.discbracket", 714},
		{"alpino test punctmoved", "alpino-cdb/test.punctmoved.discbracket", 714},
		{"disco-dop alpinosample", "disco-dop-alpinosample/alpinosample.export", 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			want, err := os.ReadFile(path)
			if err != nil {
				t.Skipf("skipping: %v", err)
			}
			f, err := FormatOf(path)
			if err != nil {
				t.Fatal(err)
			}
			trees, err := ReadAll(bytes.NewReader(want), path, f)
			if err != nil {
				t.Fatalf("read: %v", err)
			}
			if len(trees) != tc.trees {
				t.Errorf("read %d trees, want %d", len(trees), tc.trees)
			}
			for i, tr := range trees {
				if err := tr.Validate(); err != nil {
					t.Fatalf("tree %d (%s): %v", i, tr.ID, err)
				}
			}
			var buf bytes.Buffer
			if err := Write(&buf, trees, f); err != nil {
				t.Fatalf("write: %v", err)
			}
			if got := buf.Bytes(); !bytes.Equal(got, want) {
				t.Errorf("written file differs from %s at %s", path, firstDiff(got, want))
			}
		})
	}
}

// lrbWord writes round brackets in words the way the discbracket files here
// do (-LRB-, -RRB-); the export files have the brackets themselves.
func lrbWord(w string) string {
	return strings.NewReplacer("(", "-LRB-", ")", "-RRB-").Replace(w)
}

// TestDataExportToDiscbracket converts dev.export to discbracket trees and
// compares them with dev.discbracket: same words, tags and (label, yield)
// constituents. With round brackets in words written -LRB-/-RRB- as in the
// file, the written text is also byte-identical.
func TestDataExportToDiscbracket(t *testing.T) {
	dir := dataDir(t)
	exp, err := ReadFile(filepath.Join(dir, "alpino-cdb", "dev.export"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteDiscbracket(&buf, exp); err != nil {
		t.Fatalf("write discbracket: %v", err)
	}
	got, err := ReadDiscbracket(&buf, "converted")
	if err != nil {
		t.Fatalf("read back: %v", err)
	}
	wantPath := filepath.Join(dir, "alpino-cdb", "dev.discbracket")
	want, err := ReadFile(wantPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d trees, want %d", len(got), len(want))
	}
	for i := range got {
		gw, gt, gc := bracketing(got[i], lrbWord)
		ww, wt, wc := bracketing(want[i], func(s string) string { return s })
		if !reflect.DeepEqual(gw, ww) || !reflect.DeepEqual(gt, wt) || !reflect.DeepEqual(gc, wc) {
			t.Fatalf("tree %d (%s):\n got %v %v %v\nwant %v %v %v", i, exp[i].ID, gw, gt, gc, ww, wt, wc)
		}
	}

	for _, tr := range exp {
		for i := range tr.Tokens {
			tr.Tokens[i].Word = lrbWord(tr.Tokens[i].Word)
		}
	}
	buf.Reset()
	if err := WriteDiscbracket(&buf, exp); err != nil {
		t.Fatalf("write discbracket: %v", err)
	}
	wantBytes, err := os.ReadFile(wantPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), wantBytes) {
		t.Errorf("converted text differs from %s at %s", wantPath, firstDiff(buf.Bytes(), wantBytes))
	}
}

// TestDataDiscbracketToExport reads dev.discbracket and checks that the
// nodes get the numbers, labels and parents of dev.export (disco-dop's
// post-order numbering), and the tokens the same words, tags and parents.
func TestDataDiscbracketToExport(t *testing.T) {
	dir := dataDir(t)
	disc, err := ReadFile(filepath.Join(dir, "alpino-cdb", "dev.discbracket"))
	if err != nil {
		t.Fatal(err)
	}
	exp, err := ReadFile(filepath.Join(dir, "alpino-cdb", "dev.export"))
	if err != nil {
		t.Fatal(err)
	}
	if len(disc) != len(exp) {
		t.Fatalf("%d trees, want %d", len(disc), len(exp))
	}
	// Through export text and back, to check that what is written is valid.
	var buf bytes.Buffer
	if err := WriteExport(&buf, disc, 4); err != nil {
		t.Fatalf("write export: %v", err)
	}
	back, err := ReadExport(&buf, "converted")
	if err != nil {
		t.Fatalf("read back: %v", err)
	}
	for i, d := range back {
		e := exp[i]
		if len(d.Tokens) != len(e.Tokens) || len(d.Nodes) != len(e.Nodes) {
			t.Fatalf("tree %d: %d tokens %d nodes, want %d and %d", i, len(d.Tokens), len(d.Nodes), len(e.Tokens), len(e.Nodes))
		}
		for j, tok := range d.Tokens {
			et := e.Tokens[j]
			if tok.Word != lrbWord(et.Word) || tok.Tag != et.Tag || tok.Parent != et.Parent {
				t.Fatalf("tree %d token %d: %+v, want %+v", i, j, tok, et)
			}
		}
		for j, nd := range d.Nodes {
			en := e.Nodes[j]
			if nd.Num != en.Num || nd.Label != en.Label || nd.Parent != en.Parent {
				t.Fatalf("tree %d node %d: %+v, want %+v", i, j, nd, en)
			}
		}
	}
}

func BenchmarkReadTrainExport(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(dataDir(b), "alpino-cdb", "train.export"))
	if err != nil {
		b.Skipf("skipping: %v", err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ReadExport(bytes.NewReader(data), "train.export"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadTrainDiscbracket(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(dataDir(b), "alpino-cdb", "train.discbracket"))
	if err != nil {
		b.Skipf("skipping: %v", err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ReadDiscbracket(bytes.NewReader(data), "train.discbracket"); err != nil {
			b.Fatal(err)
		}
	}
}
