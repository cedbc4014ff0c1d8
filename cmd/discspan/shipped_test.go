package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"testing"

	"github.com/discspan/discspan/weights"
)

// TestShippedModelCards parses the dev set with each weights file the
// repository ships, as a user would (discspan parse, then eval), and checks
// that the model card in the file (dev F1 and disc. F1, shown in the app's
// model list) is what the file scores: the card must describe the stored
// models, not the float models they were rounded from.
func TestShippedModelCards(t *testing.T) {
	dev := dataPath(t, "dev.punctmoved.discbracket")
	for _, name := range []string{"default", "fast"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("..", "..", "weights", name+".safetensors")
			f, err := weights.ReadMeta(path)
			if err != nil {
				t.Fatal(err)
			}
			parsed := filepath.Join(t.TempDir(), "dev.discbracket")
			if _, stderr, status := runCmd("parse", "--weights", path, "--input", dev, "--output", parsed); status != 0 {
				t.Fatalf("parse: %s", stderr)
			}
			stdout, stderr, status := runCmd("eval", "--json", dev, parsed)
			if status != 0 {
				t.Fatalf("eval: %s", stderr)
			}
			var report struct {
				All struct {
					Sentences int     `json:"sentences"`
					F1        float64 `json:"f1"`
					DiscF1    float64 `json:"disc_f1"`
				} `json:"all"`
			}
			if err := json.Unmarshal([]byte(stdout), &report); err != nil {
				t.Fatalf("eval --json: %v\n%s", err, stdout)
			}
			// Both come from the same parses and the same evaluator: equal
			// up to the card's float formatting.
			const tolerance = 1e-9
			if report.All.Sentences == 0 || math.Abs(report.All.F1-f.Meta.DevF1) > tolerance || math.Abs(report.All.DiscF1-f.Meta.DevDiscF1) > tolerance {
				t.Errorf("%s: the card says dev F1 %.4f, disc. F1 %.4f; parse and eval of %d dev sentences give %.4f, %.4f",
					path, f.Meta.DevF1, f.Meta.DevDiscF1, report.All.Sentences, report.All.F1, report.All.DiscF1)
			}
			t.Logf("%s: dev F1 %.2f, disc. F1 %.2f (%d bytes)", name, report.All.F1, report.All.DiscF1, f.Bytes)
		})
	}
}
