package maketest

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// root is the repository root, where the Makefile is.
var root = filepath.Join("..", "..")

// makeCmd runs make in the repository root with args and returns its
// combined output and whether it succeeded; it skips the test without
// make.
func makeCmd(t *testing.T, args ...string) (string, bool) {
	t.Helper()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skipf("make is not installed: %v", err)
	}
	cmd := exec.Command("make", append([]string{"--no-print-directory"}, args...)...)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	return string(out), err == nil
}

// TestDemoSaysWhatItBuilds checks (with make -n, building nothing) that
// make demo says what it builds and that the first build takes minutes,
// before the commands that take them.
func TestDemoSaysWhatItBuilds(t *testing.T) {
	out, ok := makeCmd(t, "-n", "demo")
	if !ok {
		t.Fatalf("make -n demo failed:\n%s", out)
	}
	for _, tc := range []struct{ says, before string }{
		{"demo: building the server", "go build -o"},
		{"build: bin/discspan (the first build compiles every dependency and takes a few minutes", "go build -o bin/discspan"},
		{"wasm: building the browser app in build/web (the first build takes a few minutes", "GOOS=js GOARCH=wasm"},
	} {
		i, j := strings.Index(out, tc.says), strings.Index(out, tc.before)
		if i < 0 || j < 0 || i > j {
			t.Errorf("make demo should say %q before running %q:\n%s", tc.says, tc.before, out)
		}
	}
}

// TestTestRunsEveryStep runs make test with stand-in steps and checks that
// a failing step does not stop the later ones, that the summary names each
// step's result, and that make fails at the end.
func TestTestRunsEveryStep(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps string
		ok    bool
		want  []string
	}{
		{
			name: "a failure in the middle", steps: `"first|true" "second|false" "third|echo third ran"`,
			want: []string{"third ran", "first: ok in", "second: FAILED in", "third: ok in", "make test: failed: second"},
		},
		{
			name: "all pass", steps: `"first|true" "second|true"`, ok: true,
			want: []string{"first: ok in", "second: ok in"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, ok := makeCmd(t, "test", "TEST_STEPS="+tc.steps)
			if ok != tc.ok {
				t.Errorf("make test succeeded: %v, want %v", ok, tc.ok)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("no %q in the output:\n%s", w, out)
				}
			}
		})
	}
}
