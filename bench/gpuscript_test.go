package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// nextScript is the script the next session with an NVIDIA GPU runs
// (docs/gpu.md); it can only run there, so this test keeps what it names
// in step with the code. teacherScript trains issue 17's teacher there
// (docs/model-experiments.md).
const (
	nextScript    = "gpu/next.sh"
	teacherScript = "gpu/teacher.sh"
)

// TestGPUScript checks that bench/gpu/next.sh and teacher.sh parse, that every benchmark
// it runs exists in the webgpu package, that every backend it asks
// `discspan bench score` for is one the command measures, that the files
// of the repository it reads exist, and that the files it expects in .gpu
// are the ones ../shared/gpu/prepare.sh writes.
func TestGPUScript(t *testing.T) {
	raw, err := os.ReadFile(nextScript)
	if err != nil {
		t.Fatal(err)
	}
	script := string(raw)
	if sh, err := exec.LookPath("bash"); err != nil {
		t.Logf("bash not found (%v): the scripts' syntax is not checked", err)
	} else {
		for _, f := range []string{nextScript, teacherScript} {
			if out, err := exec.Command(sh, "-n", f).CombinedOutput(); err != nil {
				t.Errorf("bash -n %s: %v\n%s", f, err, out)
			}
		}
	}

	var benchSources strings.Builder
	tests, err := filepath.Glob(filepath.Join("..", "webgpu", "*_test.go"))
	if err != nil || len(tests) == 0 {
		t.Fatalf("the webgpu package's tests: %v (%d files)", err, len(tests))
	}
	for _, f := range tests {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		benchSources.Write(src)
	}
	benches := regexp.MustCompile(`-test\.bench ([A-Za-z0-9_]+)`).FindAllStringSubmatch(script, -1)
	if len(benches) < 3 {
		t.Fatalf("%s runs %d benchmarks, want the score benchmark and both profiles", nextScript, len(benches))
	}
	for _, m := range benches {
		if !strings.Contains(benchSources.String(), "func Benchmark"+m[1]+"(") {
			t.Errorf("%s runs -test.bench %s, but the webgpu package has no Benchmark%s", nextScript, m[1], m[1])
		}
	}

	backends := regexp.MustCompile(`--backends ([a-z0-9,-]+)`).FindAllStringSubmatch(script, -1)
	if len(backends) == 0 {
		t.Fatalf("%s never runs bench score with --backends", nextScript)
	}
	for _, m := range backends {
		for _, b := range strings.Split(m[1], ",") {
			if !slices.Contains(ScoreBackends, b) {
				t.Errorf("%s asks bench score for backend %q; it measures %v", nextScript, b, ScoreBackends)
			}
		}
	}

	for _, m := range regexp.MustCompile(`"\$R/([^"]+)"`).FindAllStringSubmatch(script, -1) {
		if strings.HasPrefix(m[1], ".") { // .gl, .gpu: made by prepare.sh
			continue
		}
		if _, err := os.Stat(filepath.Join("..", m[1])); err != nil {
			t.Errorf("%s reads %s from the repository: %v", nextScript, m[1], err)
		}
	}

	prepare := filepath.Join("..", "..", "shared", "gpu", "prepare.sh")
	prep, err := os.ReadFile(prepare)
	if err != nil {
		t.Logf("the recipe's prepare.sh is not beside the project (%v): the files next.sh expects in .gpu are not checked against it", err)
		return
	}
	for _, want := range []string{"webgpu.test", "discspan", "default.safetensors", "test.punctmoved.discbracket"} {
		if !strings.Contains(script, want) {
			t.Errorf("%s does not use .gpu's %s", nextScript, want)
		}
		if !strings.Contains(string(prep), want) {
			t.Errorf("%s uses .gpu's %s, which %s does not write", nextScript, want, prepare)
		}
	}
}
