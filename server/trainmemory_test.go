package server

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discspan/discspan/network"
)

// chain returns k discbracket sentences of n words, each a right-branching
// chain of n-1 constituents whose labels cycle through labels names.
func chain(k, n, labels int) string {
	var b strings.Builder
	lab := 0
	for range k {
		b.WriteString("(ROOT ")
		for i := range n - 1 {
			lab = lab%labels + 1
			fmt.Fprintf(&b, "(L%d (n %d=w%d) ", lab, i, i)
		}
		fmt.Fprintf(&b, "(n %d=w%d)", n-1, n-1)
		b.WriteString(strings.Repeat(")", n-1) + ")\n")
	}
	return b.String()
}

// An upload within every limit of its own (300 words a sentence, 500
// labels, 114 KB) once took a job to 2.8 GB in one allocation and the
// server down, at every restart. Its training's memory is estimated from
// its sentences' lengths and labels, and an upload over the server's
// budget is refused with a 400 before a job is made, saying how long its
// sentences may be to fit.
func TestUploadTrainingMemory(t *testing.T) {
	long := chain(20, 300, 499)
	mixed := chain(20, 20, 40) + chain(2, 200, 40)
	// A budget that the 20-word sentences fit, with the tiny preset and
	// the labels of the upload's training sentences.
	cfg := network.Tiny()
	cfg.WordVocab, cfg.CharVocab, cfg.Labels, cfg.Tags = 200+8, 11+8, 40, 1 // words w0..w199
	s := defaultShape()
	small := (trainingBytes(cfg, []int{20}, s.batchWords, s.workers)>>20 + 1) << 20
	tests := []struct {
		name   string
		budget int64
		body   string
		code   int
		want   string
	}{
		{"the audit's upload", 0, long, 400, "(its longest sentence has 300 words, and it has 499 labels), more than the 4096 MiB this server gives a job (--train-max-mb); no sentence length would fit: a batch of 500 one-word sentences would take about "},
		{"long sentences over a small budget", small, mixed, 400, fmt.Sprintf("its longest sentence has 200 words, and it has 40 labels), more than the %d MiB this server gives a job (--train-max-mb); without its sentences of more than 20 words it would fit", small>>20)},
		{"the same within the default budget", 0, mixed, 202, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, srv := limitServer(t, Options{TrainMemory: tc.budget}, nil)
			resp, b := do(t, http.MethodPost, srv.URL+TrainPath+"?epochs=1", testToken, "", []byte(tc.body))
			if resp.StatusCode != tc.code {
				t.Fatalf("%s %s, want %d", resp.Status, b, tc.code)
			}
			if tc.code != 400 {
				return
			}
			if e := errorOf(t, b); !strings.Contains(e.Error, tc.want) || !strings.Contains(e.Error, "training on this upload would take about") {
				t.Errorf("%s, want %q", b, tc.want)
			}
			if jobs := h.jobs.list(); len(jobs) != 0 {
				t.Errorf("refused upload made jobs: %+v", jobs)
			}
		})
	}
}

// The real training set (Alpino cdb, as an upload) fits the default
// budget with every preset but the paper one, with 16 workers.
func TestTrainingMemoryAlpino(t *testing.T) {
	dir := os.Getenv("DATA")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "data")
	}
	f, err := os.Open(filepath.Join(dir, "alpino-cdb", "train.export"))
	if err != nil {
		t.Skipf("skipping: no Alpino training set: %v", err)
	}
	defer f.Close()
	c, err := convertUpload(f, "", 0, discard{}, discard{})
	if err != nil {
		t.Fatal(err)
	}
	for _, preset := range []string{"tiny", "small", "paper"} {
		cfg, err := network.Preset(preset)
		if err != nil {
			t.Fatal(err)
		}
		cfg.WordVocab, cfg.CharVocab, cfg.Labels, cfg.Tags = c.Words+8, c.Chars+8, c.Labels, c.Tags
		err = c.checkMemory(cfg, trainShape{batchWords: 500, workers: 16}, DefaultTrainMemory)
		t.Logf("%s: %v", preset, err)
		if (err != nil) != (preset == "paper") {
			t.Errorf("%s: %v", preset, err)
		}
	}
}

// discard is io.Discard as a writer type of its own.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
