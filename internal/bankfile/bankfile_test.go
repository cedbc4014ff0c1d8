package bankfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
)

const sample = "(ROOT (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) (? 3=?)))\n(ROOT (A 0=a))\n"

// mustRead reads discbracket text or fails the test.
func mustRead(t *testing.T, text string) []*tree.Tree {
	t.Helper()
	trees, err := treebank.ReadAll(strings.NewReader(text), "test", treebank.Discbracket)
	if err != nil {
		t.Fatal(err)
	}
	return trees
}

// mustWrite writes trees in format f to memory or fails the test.
func mustWrite(t *testing.T, trees []*tree.Tree, f treebank.Format) string {
	t.Helper()
	var buf bytes.Buffer
	if err := treebank.Write(&buf, trees, f); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestWrite: each writable format gives the bytes treebank.Write gives and
// reads back the same; a failed write names the file and leaves it alone,
// with no temporary file left beside it.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	trees := mustRead(t, sample)
	tests := []struct {
		file   string
		format treebank.Format
	}{
		{"out.discbracket", treebank.Discbracket},
		{"out.export", treebank.Export},
		{"out.xml", treebank.TigerXML},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			if err := os.WriteFile(path, []byte("old contents"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := Write(path, trees, Options{}); err != nil {
				t.Fatal(err)
			}
			want := mustWrite(t, trees, tc.format)
			if data, _ := os.ReadFile(path); string(data) != want {
				t.Errorf("file holds %q, want %q", data, want)
			}
			back, err := treebank.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := mustWrite(t, back, treebank.Discbracket); got != mustWrite(t, trees, treebank.Discbracket) {
				t.Errorf("read back %q", got)
			}
			bad := []*tree.Tree{{Tokens: []tree.Token{{Word: "a b", Parent: tree.Root}}}}
			if tc.format == treebank.TigerXML {
				bad[0].Tokens[0].Word = "a\x00"
			}
			if err := Write(path, append(trees[:1:1], bad...), Options{}); err == nil || !strings.Contains(err.Error(), path) {
				t.Errorf("error %v, want one naming %s", err, path)
			}
			if again, _ := os.ReadFile(path); string(again) != want {
				t.Errorf("failed write changed the file to %q", again)
			}
		})
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(tests) {
		t.Errorf("folder holds %d files, want %d (temporary files left?)", len(entries), len(tests))
	}
}

// TestWriteFormat: Options.Format writes a file whose name says no format
// (as /dev/stdout), and overrides the extension; PTB, read only, is refused
// before the file is touched.
func TestWriteFormat(t *testing.T) {
	dir := t.TempDir()
	trees := mustRead(t, sample)
	tests := []struct {
		file   string
		format treebank.Format
	}{
		{"out", treebank.Export},
		{"out.discbracket", treebank.Export},
		{"out.export", treebank.Discbracket},
		{"out.txt", treebank.TigerXML},
	}
	for _, tc := range tests {
		path := filepath.Join(dir, tc.file)
		if err := Write(path, trees, Options{Format: tc.format}); err != nil {
			t.Fatalf("%s as %v: %v", tc.file, tc.format, err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if want := mustWrite(t, trees, tc.format); string(data) != want {
			t.Errorf("%s as %v holds %q, want %q", tc.file, tc.format, data, want)
		}
	}
	path := filepath.Join(dir, "out.export")
	before, _ := os.ReadFile(path)
	if err := Write(path, trees, Options{Format: treebank.PTB}); err == nil || !strings.Contains(err.Error(), "cannot write") {
		t.Errorf("writing PTB: error %v, want one saying it cannot be written", err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("a refused PTB write changed the file")
	}
}

// TestWriteErrors: errors name the path and say what is wrong.
func TestWriteErrors(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, "out.discbracket")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "no", "a.export")
	tests := []struct {
		name string
		path string
		want string
	}{
		{"PTB", filepath.Join(dir, "a.mrg"), "cannot write"},
		{"unknown extension", filepath.Join(dir, "a.txt"), "unknown file extension"},
		{"missing folder", missing, "writing " + missing},
		{"a folder", folder, folder + ": it is a folder"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Write(tc.path, nil, Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), ".tmp") {
				t.Errorf("error %v, want one containing %q (and not the temporary file)", err, tc.want)
			}
		})
	}
}

// TestStream streams the dev treebank from treebank.OpenFile to Stream: the
// file is the one Write writes; an error of the producer, or of the
// Writer, leaves the file that was there unchanged, and the producer's
// error comes back as it is.
func TestStream(t *testing.T) {
	path := filepath.Join("..", "..", "..", "shared", "data", "alpino-cdb", "dev.export")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("skipping: treebank data not found: %v", err)
	}
	trees, err := treebank.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	want := filepath.Join(dir, "want.discbracket")
	if err := Write(want, trees, Options{}); err != nil {
		t.Fatal(err)
	}
	stop := errors.New("stopped by the producer")
	tests := []struct {
		name    string
		stopAt  int  // the producer fails before this tree; -1: never
		badTree bool // tree 5 cannot be written
		wantErr func(error) bool
	}{
		{"whole", -1, false, func(err error) bool { return err == nil }},
		{"producer fails", 100, false, func(err error) bool { return err == stop }},
		{"writer fails", -1, true, func(err error) bool {
			var we *treebank.WriteError
			return errors.As(err, &we) && we.N == 5 && strings.Contains(err.Error(), "got.discbracket")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := filepath.Join(dir, "got.discbracket")
			if err := os.WriteFile(got, []byte("kept\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			in, err := treebank.OpenFile(path)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			n := 0
			err = Stream(got, Options{}, func(write func(*tree.Tree) error) error {
				return in.Each(func(tr *tree.Tree) error {
					if n == tc.stopAt {
						return stop
					}
					n++
					if tc.badTree && n == 5 {
						tr = tr.Clone()
						tr.Tokens = make([]tree.Token, treebank.MaxTokens+1)
					}
					return write(tr)
				})
			})
			if !tc.wantErr(err) {
				t.Fatalf("error %v", err)
			}
			gotData, _ := os.ReadFile(got)
			if err != nil {
				if string(gotData) != "kept\n" {
					t.Errorf("a failed write changed the file: %.60q", gotData)
				}
				return
			}
			wantData, _ := os.ReadFile(want)
			if !bytes.Equal(gotData, wantData) {
				t.Errorf("streamed file differs from Write's")
			}
			if n != len(trees) {
				t.Errorf("%d trees given, want %d", n, len(trees))
			}
		})
	}
}
