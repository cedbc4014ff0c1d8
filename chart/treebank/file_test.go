package treebank

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

func TestFileErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"read unknown extension", func() error { _, err := ReadFile(filepath.Join(dir, "a.txt")); return err }, "unknown file extension"},
		{"read missing file", func() error { _, err := ReadFile(filepath.Join(dir, "missing.export")); return err }, "missing.export"},
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
