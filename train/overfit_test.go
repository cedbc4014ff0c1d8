package train

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/parser"
)

// TestOverfit trains a small network on 30 short sentences and evaluates on
// the same sentences: a model that learns them proves that targets, loss,
// decoding, tree building and evaluation are wired together right.
func TestOverfit(t *testing.T) {
	dir := t.TempDir()
	data := shortSentences(t, dir, 30, 12)
	var log strings.Builder
	start := time.Now()
	sum, err := Run(context.Background(), Options{
		Train: data, Dev: data, Out: filepath.Join(dir, "model.safetensors"),
		Config: smallConfig(), Adam: fastAdam(), Epochs: 40, MaxBatchWords: 60, Seed: 1, Workers: 2,
		Log: &log,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", log.String())
	t.Logf("%d epochs, %d updates in %v", sum.Epochs, sum.Updates, time.Since(start))
	if sum.BestDevF1 <= 80 {
		t.Errorf("best F1 on the training sentences %.2f (epoch %d), want > 80", sum.BestDevF1, sum.BestEpoch)
	}

	// The output file holds the best epoch's model: it scores the best F1.
	p, err := parser.Load(sum.Out)
	if err != nil {
		t.Fatal(err)
	}
	gold, err := treebank.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Evaluate(context.Background(), p.Model, p.Vocab, gold, DevVariant, 2)
	if err != nil {
		t.Fatal(err)
	}
	if res.All.F1 != sum.BestDevF1 {
		t.Errorf("output model scores F1 %.4f, best epoch %.4f", res.All.F1, sum.BestDevF1)
	}

	// One log line per epoch, each valid JSON; the plot is there.
	lines := strings.Split(strings.TrimSpace(string(readFile(t, sum.Out+".log.jsonl"))), "\n")
	if len(lines) != sum.Epochs {
		t.Fatalf("%d log lines for %d epochs", len(lines), sum.Epochs)
	}
	for i, l := range lines {
		var e EpochLog
		if err := json.Unmarshal([]byte(l), &e); err != nil || e.Epoch != i+1 || e.DevF1 != sum.History[i].DevF1 {
			t.Errorf("log line %d: %q (%v)", i+1, l, err)
		}
	}
	if svg := readFile(t, sum.Out+".plot.svg"); !strings.HasPrefix(string(svg), "<svg") {
		t.Errorf("plot starts %q", svg[:min(20, len(svg))])
	}
}
