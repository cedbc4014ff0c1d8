package treebank

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

func TestFormatOf(t *testing.T) {
	tests := []struct {
		path string
		want Format
	}{
		{"a/train.export", Export},
		{"dev.punctmoved.discbracket", Discbracket},
		{"x.DBR", Discbracket},
		{"wsj_0001.mrg", PTB},
		{"x.ptb", PTB},
		{"x.bracket", PTB},
		{"1270.gragas.law-law.psd", PTB},
		{"x.txt", Unknown},
		{"export", Unknown},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			got, err := FormatOf(tc.path)
			if got != tc.want || (err != nil) != (tc.want == Unknown) {
				t.Errorf("FormatOf(%q) = %v, %v; want %v", tc.path, got, err, tc.want)
			}
		})
	}
}

func TestParseFormat(t *testing.T) {
	tests := []struct {
		name string
		want Format
	}{
		{"export", Export},
		{"discbracket", Discbracket},
		{"DiscBracket", Discbracket},
		{"ptb", PTB},
		{"tigerxml", TigerXML},
		{"xml", Unknown},
		{"", Unknown},
	}
	for _, tc := range tests {
		got, err := ParseFormat(tc.name)
		if got != tc.want || (err != nil) != (tc.want == Unknown) {
			t.Errorf("ParseFormat(%q) = %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
}

// TestWriteFileFormat: WriteOptions.Format writes a file whose name says no
// format (as /dev/stdout), and overrides the extension; PTB, read only, is
// refused before the file is touched.
func TestWriteFileFormat(t *testing.T) {
	dir := t.TempDir()
	trees := mustRead(t, "(ROOT (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) (? 3=?)))\n", Discbracket)
	tests := []struct {
		file   string
		format Format
	}{
		{"out", Export},
		{"out.discbracket", Export},
		{"out.export", Discbracket},
		{"out.txt", TigerXML},
	}
	for _, tc := range tests {
		path := filepath.Join(dir, tc.file)
		if err := WriteFileOptions(path, trees, WriteOptions{Format: tc.format}); err != nil {
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
	if err := WriteFileOptions(path, trees, WriteOptions{Format: PTB}); err == nil || !strings.Contains(err.Error(), "cannot write") {
		t.Errorf("writing PTB: error %v, want one saying it cannot be written", err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("a refused PTB write changed the file")
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	trees := mustRead(t, "(ROOT (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) (? 3=?)))\n(ROOT (A 0=a))\n", Discbracket)
	tests := []struct {
		name string
		file string
		want string
	}{
		{"discbracket", "out.discbracket", mustWrite(t, trees, Discbracket)},
		{"export", "out.export", mustWrite(t, trees, Export)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			if err := os.WriteFile(path, []byte("old contents"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := WriteFile(path, trees); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != tc.want {
				t.Errorf("file holds %q, want %q", data, tc.want)
			}
			got, err := ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := treesEqual(got, trees, false); diff != "" {
				t.Error(diff)
			}
			// A failed write leaves the file alone.
			bad := []*tree.Tree{{Tokens: []tree.Token{{Word: "a b", Parent: tree.Root}}}}
			if err := WriteFile(path, bad); err == nil || !strings.Contains(err.Error(), path) {
				t.Errorf("error %v, want one naming %s", err, path)
			}
			if again, _ := os.ReadFile(path); string(again) != tc.want {
				t.Errorf("failed write changed the file to %q", again)
			}
		})
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Errorf("directory holds %d files, want 2 (temporary files left?)", len(entries))
	}
}

func TestFileErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"read unknown extension", func() error { _, err := ReadFile(filepath.Join(dir, "a.txt")); return err }, "unknown file extension"},
		{"read missing file", func() error { _, err := ReadFile(filepath.Join(dir, "missing.export")); return err }, "missing.export"},
		{"write PTB", func() error { return WriteFile(filepath.Join(dir, "a.mrg"), nil) }, "cannot write"},
		{"write to missing dir", func() error { return WriteFile(filepath.Join(dir, "no", "a.export"), nil) }, "no"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.err()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	path := filepath.Join(dir, "bad.export")
	if err := os.WriteFile(path, []byte("#BOS 1\nx\n#EOS 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path); err == nil || !strings.HasPrefix(err.Error(), path+":2: ") {
		t.Errorf("error %v, want one starting with %s:2: ", err, path)
	}
}

// TestWriteFileFunc streams the dev treebank from OpenFile to
// WriteFileFunc: the file is the one WriteFile writes; an error of the
// producer, or of the Writer, leaves the file that was there unchanged, and
// the producer's error comes back as it is.
func TestWriteFileFunc(t *testing.T) {
	path := filepath.Join(dataDir(t), "alpino-cdb", "dev.export")
	trees, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	want := filepath.Join(dir, "want.discbracket")
	if err := WriteFile(want, trees); err != nil {
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
			var we *WriteError
			return errors.As(err, &we) && we.N == 5 && strings.Contains(err.Error(), "got.discbracket")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := filepath.Join(dir, "got.discbracket")
			if err := os.WriteFile(got, []byte("kept\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			in, err := OpenFile(path)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			n := 0
			err = WriteFileFunc(got, WriteOptions{}, func(write func(*tree.Tree) error) error {
				return in.Each(func(tr *tree.Tree) error {
					if n == tc.stopAt {
						return stop
					}
					n++
					if tc.badTree && n == 5 {
						tr = tr.Clone()
						tr.Tokens = make([]tree.Token, MaxTokens+1)
					}
					return write(tr)
				})
			})
			if !tc.wantErr(err) {
				t.Fatalf("error %v", err)
			}
			wantFile := want
			if err != nil {
				wantFile = ""
			}
			gotData, _ := os.ReadFile(got)
			if wantFile == "" {
				if string(gotData) != "kept\n" {
					t.Errorf("a failed write changed the file: %.60q", gotData)
				}
				return
			}
			wantData, _ := os.ReadFile(wantFile)
			if !bytes.Equal(gotData, wantData) {
				t.Errorf("streamed file differs from WriteFile's at %s", firstDiff(gotData, wantData))
			}
			if n != len(trees) {
				t.Errorf("%d trees given, want %d", n, len(trees))
			}
		})
	}
}

// TestReaderRest reads a few trees, then the rest with Rest: the count is
// the rest's, and a parse error given to Rest heads the list of errors.
func TestReaderRest(t *testing.T) {
	path := filepath.Join(dataDir(t), "alpino-cdb", "dev.discbracket")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := NewReader(bytes.NewReader(data), "dev.discbracket", Discbracket)
	for range 14 {
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := r.Rest(nil); n != 700 || err != nil {
		t.Errorf("Rest: %d trees, %v; want 700, nil", n, err)
	}
	r = NewReader(strings.NewReader("(S 0=a)\n(S 0=b\n(S 0=c)\n(S 1=d\n"), "x.discbracket", Discbracket)
	r.Next()
	_, err = r.Next()
	var first *Error
	if !errors.As(err, &first) {
		t.Fatalf("Next: %v, want a parse error", err)
	}
	n, err := r.Rest(first)
	var list ErrorList
	if n != 1 || !errors.As(err, &list) || len(list) != 2 || list[0] != first || list[1].Line != 4 {
		t.Errorf("Rest: %d trees, %v; want 1 and the errors of lines 2 and 4", n, err)
	}
}
