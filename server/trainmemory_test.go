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
	// the upload's vocabulary and labels.
	c, err := convertUpload(strings.NewReader(mixed), "", 0, 0, discard{}, discard{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := network.Tiny()
	cfg.WordVocab, cfg.CharVocab, cfg.Labels, cfg.Tags = c.Words+8, c.Chars+8, c.Labels, 1
	s := defaultShape()
	small := (trainingBytes(cfg, c.Lengths, 20, s.batchWords, s.workers)>>20 + 1) << 20
	tests := []struct {
		name   string
		budget int64
		body   string
		code   int
		want   string
	}{
		{"the audit's upload", 0, long, 400, "(its longest sentence has 300 words, and it has 499 labels), more than the 4096 MiB this server gives a job (--train-max-mb); even its sentences of 300 words alone would not fit (about "},
		{"long sentences over a small budget", small, mixed, 400, fmt.Sprintf("its longest sentence has 200 words, and it has 40 labels), more than the %d MiB this server gives a job (--train-max-mb); without its sentences of more than 20 words it would fit", small>>20)},
		{"the same within the default budget", 0, mixed, 202, ""},
		// A sentence without words is left out of training, and of the
		// estimate (it divided by zero).
		{"an empty sentence", 0, mixed + "(ROOT )\n", 202, ""},
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
	c, err := convertUpload(f, "", 0, 0, discard{}, discard{})
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
		// The advice of a refusal holds: with what it says would fit, the
		// upload fits, for budgets between what the parameters take and
		// what the upload needs.
		params, need := trainingBytes(cfg, nil, 0, 500, 16), trainingBytes(cfg, c.Lengths, 0, 500, 16)
		advised := 0
		for k := range int64(10) {
			budget := params + (need-params)*k/10
			err := c.checkMemory(cfg, trainShape{batchWords: 500, workers: 16}, budget)
			if err == nil || !strings.Contains(err.Error(), "without its sentences of more than") {
				continue
			}
			msg := err.Error()
			var upTo int
			fmt.Sscanf(msg[strings.Index(msg, "more than ")+len("more than "):], "%d", &upTo)
			cut := c
			cut.Lengths = map[int]int{}
			for n, k := range c.Lengths {
				if n <= upTo {
					cut.Lengths[n] = k
				}
			}
			advised++
			if err := cut.checkMemory(cfg, trainShape{batchWords: 500, workers: 16}, budget); err != nil {
				t.Errorf("%s, budget %d MiB: the advice of %q does not fit: %v", preset, budget>>20, msg, err)
			}
		}
		t.Logf("%s: %d of 10 budgets refused with advice", preset, advised)
	}
}

// discard is io.Discard as a writer type of its own.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// An upload's vocabulary is bounded while it is read: the training
// sentence that brings one word more than the preset's network may hold
// is refused at its line (before, the words were all counted first: two
// 32 MiB uploads of 2.25 M words took the server to 555 MB). The bound is
// the parameter limit's: one word more passes MaxTrainParams.
func TestUploadVocabularyBound(t *testing.T) {
	var b strings.Builder
	for i := range 12 {
		fmt.Fprintf(&b, "(ROOT (NP (n 0=w%da) (n 1=w%db)))\n", i, i)
	}
	// Sentences 1-4 bring 8 words; the 5th brings the 9th and 10th.
	_, err := convertUpload(strings.NewReader(b.String()), "", 0, 9, discard{}, discard{})
	code, line := uploadStatus(err)
	if code != http.StatusBadRequest || line != 5 || !strings.Contains(err.Error(), `word "w4b" is one more than the 9 different words`) {
		t.Errorf("upload of 24 words with room for 9: %d at line %d: %v", code, line, err)
	}
	if _, err := convertUpload(strings.NewReader(b.String()), "", 0, 22, discard{}, discard{}); err != nil {
		t.Errorf("upload of 22 training words (the 12th sentence is dev) with room for 22: %v", err)
	}
	for _, preset := range network.PresetNames() {
		limit := vocabLimit(preset)
		for words, want := range map[int]bool{limit: true, limit + 1: false} {
			c := converted{Words: words, Chars: 0, Labels: 1, Tags: 1}
			err := c.checkModel(preset, trainShape{batchWords: 1, workers: 1}, 1<<40)
			if fits := err == nil || !strings.Contains(err.Error(), "M parameters"); fits != want {
				t.Errorf("%s: %d words: %v", preset, words, err)
			}
		}
	}
}
