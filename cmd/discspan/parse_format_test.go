package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --input-format reads an input whatever its name says (a treebank piped
// in, or kept without an extension, was parsed as text: its "#BOS" lines
// as sentences); a name the flag does not know is a usage error.
func TestParseInputFormat(t *testing.T) {
	src, err := os.ReadFile(dataPath(t, "dev.export"))
	if err != nil {
		t.Fatal(err)
	}
	// The first three sentences of the export.
	end := 0
	for range 3 {
		end += strings.Index(string(src[end:]), "#EOS")
		end += strings.IndexByte(string(src[end:]), '\n') + 1
	}
	dir := t.TempDir()
	noExt := filepath.Join(dir, "three")
	if err := os.WriteFile(noExt, src[:end], 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		status int
		want   []string // in stdout (status 0) or stderr
		not    string   // not in stdout
	}{
		{"export without an extension", []string{"--input", noExt, "--input-format", "export"}, 0, []string{"#BOS cdb-5723", "#BOS cdb-5724", "#BOS cdb-5725"}, "#BOS 4"},
		{"the same as text: its lines are sentences", []string{"--input", noExt}, 2, []string{`three:2: token 0: word "#BOS": reads as a sentence boundary`}, ""},
		{"unknown format", []string{"--input", noExt, "--input-format", "conll"}, 2, []string{`--input-format "conll": want one of text, export, discbracket, tigerxml, ptb`}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, status := runCmd(append([]string{"parse", "--format", "export"}, tc.args...)...)
			got := stderr
			if tc.status == 0 {
				got = out
			}
			if status != tc.status {
				t.Fatalf("status %d, stderr %q", status, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q not in %.300q", w, got)
				}
			}
			if tc.not != "" && strings.Contains(out, tc.not) {
				t.Errorf("%q in %.300q", tc.not, out)
			}
		})
	}
}
