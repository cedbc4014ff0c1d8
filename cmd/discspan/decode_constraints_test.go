package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// constraintFile writes a constraint file and returns its path.
func constraintFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDecodeConstrainedCommand decodes scoreJSON's sentence ("is John
// rich", best tree S over everything with a discontinuous VP "is ... rich")
// under constraint files.
func TestDecodeConstrainedCommand(t *testing.T) {
	scores := scoreJSON(t)
	cases := []struct {
		name, variant, constraints string
		score                      float32
		tree                       string
	}{
		{"none", "n4", `{}`, 3.5, `(ROOT (S (VP (-- 0=is) (-- 2=rich)) (-- 1=John)))`},
		// A continuous VP over "is John" (cont -1) crosses the
		// discontinuous one, which goes.
		{"require continuous VP", "n4", `{"require":[{"label":"VP","blocks":[[0,2]]}]}`, 1,
			`(ROOT (S (VP (-- 0=is) (-- 1=John)) (-- 2=rich)))`},
		{"forbid discontinuous VP", "n6", `{"forbid":[{"blocks":[[0,1],[2,3]]}]}`, 2,
			`(ROOT (S (-- 0=is) (-- 1=John) (-- 2=rich)))`},
		// Requiring the optimum's own constituent changes nothing; n3
		// decodes through the n4 chart and still reports n3.
		{"require the optimum", "n3", `{"require":[{"label":"VP","blocks":[[0,1],[2,3]]}]}`, 3.5,
			`(ROOT (S (VP (-- 0=is) (-- 2=rich)) (-- 1=John)))`},
		// A required label of negative score still counts.
		{"require negative", "n4", "{\n  \"require\": [{\"label\": \"S\", \"blocks\": [[1, 2]]}]\n}", 2.5,
			`(ROOT (S (VP (-- 0=is) (-- 2=rich)) (S (-- 1=John))))`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := constraintFile(t, "c.json", c.constraints)
			out, stderr, status := runCmd("decode", "--variant", c.variant, "--scores", scores, "--constraints", file)
			if status != 0 {
				t.Fatalf("status %d: %s", status, stderr)
			}
			var got decodeOutput
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("output is not JSON: %v\n%s", err, out)
			}
			if got.Variant != c.variant || got.Score != c.score || got.Tree != c.tree {
				t.Errorf("got %s %v %s, want %s %v %s", got.Variant, got.Score, got.Tree, c.variant, c.score, c.tree)
			}
		})
	}
}

// TestDecodeConstraintErrors: bad constraint files give exit status 2 and
// one line naming the file and the problem.
func TestDecodeConstraintErrors(t *testing.T) {
	scores := scoreJSON(t)
	cases := []struct {
		name, variant, constraints string
		want                       []string
	}{
		{"syntax", "n4", "{\n \"require\": [{\"label\": \"VP\",}]\n}", []string{"c.json:2:"}},
		{"unknown label", "n4", `{"require":[{"label":"NP","blocks":[[0,2]]}]}`, []string{"c.json", `unknown label "NP"`}},
		{"unknown field", "n4", `{"requires":[]}`, []string{"c.json", "unknown field"}},
		{"block outside", "n4", `{"forbid":[{"blocks":[[0,4]]}]}`, []string{"c.json", "forbid[0]", "outside 0..3"}},
		{"crossing", "n6", `{"require":[{"label":"VP","blocks":[[0,2]]},{"label":"S","blocks":[[1,3]]}]}`,
			[]string{"c.json", `require[0] ("VP" over [0,2))`, `require[1] ("S" over [1,3))`, "cross"}},
		{"outside the family", "continuous", `{"require":[{"label":"VP","blocks":[[0,1],[2,3]]}]}`,
			[]string{"c.json", "outside the continuous variant's family"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := constraintFile(t, "c.json", c.constraints)
			_, stderr, status := runCmd("decode", "--variant", c.variant, "--scores", scores, "--constraints", file)
			if status != 2 {
				t.Errorf("status %d, want 2 (stderr %q)", status, stderr)
			}
			if strings.Count(strings.TrimRight(stderr, "\n"), "\n") > 0 {
				t.Errorf("error is not one line: %q", stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q does not mention %q", stderr, w)
				}
			}
		})
	}
	_, stderr, status := runCmd("decode", "--scores", scores, "--constraints", filepath.Join(t.TempDir(), "none.json"))
	if status != 2 || !strings.Contains(stderr, "no such file") {
		t.Errorf("missing constraint file: status %d, stderr %q", status, stderr)
	}
}
