package parser

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"weak"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser/parsertest"
	"github.com/discspan/discspan/scorer"
)

// countingScorer counts the words it is asked to score.
type countingScorer struct {
	fixedScorer
	words *int
}

func (c countingScorer) Score(ins []network.Input) ([]network.Output, error) {
	for _, in := range ins {
		*c.words += in.Len()
	}
	return c.fixedScorer.Score(ins)
}

// TestCheckWords: a sentence over the word limit or with a word that is
// not UTF-8 is refused by ParseWords and ParseBatch before anything is
// scored; the others parse.
func TestCheckWords(t *testing.T) {
	long := strings.Fields(strings.Repeat("w0 ", tree.DefaultMaxWords+1))
	four := []string{"w0", "w1", "w2", "w3"}
	tests := []struct {
		name     string
		maxWords int
		words    []string
		want     string // part of the error; "" for none
	}{
		{"four words", 0, four, ""},
		{"default limit", 0, long, "301 words: longer than the limit of 300 words"},
		{"own limit", 3, four, "4 words: longer than the limit of 3"},
		{"no limit", -1, four, ""},
		{"invalid UTF-8", 0, []string{"w0", "w\xff", "w2", "w3"}, "word 2 (\"w\\xff\") is not valid UTF-8"},
		// Words no treebank file could hold: export writes "" as "--".
		{"empty word", 0, []string{"w0", "", "w2"}, "word 2 is empty"},
		{"space in a word is kept (TIGER-XML holds it)", 0, []string{"w0 w1", "w2"}, ""},
		{"no-break space in a word is kept", 0, []string{"w0", "w1\u00a0w2"}, ""},
		{"NUL in a word", 0, []string{"w0", "w\x00"}, `word 2 ("w\x00") holds a NUL byte`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			scored := 0
			p := &Parser{Vocab: testVocab([]string{"S/VP", "NP", "X"}, []string{"t0", "t1"}),
				Scorer: countingScorer{forcedScorer(), &scored}, MaxWords: tc.maxWords}
			_, err1 := p.ParseWords(tc.words, decode.N3)
			_, err2 := p.ParseBatch([][]string{{"w0", "w1"}, tc.words}, decode.N3, 1)
			for _, err := range []error{err1, err2} {
				switch {
				case tc.want == "" && err != nil:
					t.Errorf("error %v", err)
				case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
					t.Errorf("error %v, want %q", err, tc.want)
				}
			}
			if tc.want != "" {
				if scored != 0 {
					t.Errorf("%d words scored before the refusal", scored)
				}
				if !strings.Contains(err2.Error(), "sentence 2") {
					t.Errorf("batch error %v does not name sentence 2", err2)
				}
			}
			var le *tree.LengthError
			if errors.As(err1, &le) != strings.Contains(tc.want, "longer") {
				t.Errorf("error %v: *tree.LengthError %v", err1, le)
			}
		})
	}
}

// TestBudgetBeforeScoring: a sentence whose scores or chart would exceed
// the memory budget is refused by ParseWords, Parse and ParseBatch before
// the network runs (its output would be thrown away), naming the sentence
// in the batch.
func TestBudgetBeforeScoring(t *testing.T) {
	scored := 0
	p := &Parser{Vocab: testVocab([]string{"S/VP", "NP", "X"}, []string{"t0", "t1"}),
		Scorer: countingScorer{forcedScorer(), &scored}}
	p.Decode.MaxBytes = 1 << 20
	words := strings.Fields(strings.Repeat("w0 ", 200))
	if p.CheckFits(len(words), decode.N6) == nil {
		t.Fatal("200 words fit n6's chart in 1 MiB: the test needs a sentence that does not")
	}
	_, err1 := p.ParseWords(words, decode.N6)
	_, err2 := p.Parse(t.Context(), Request{Words: words, Variant: "n6"})
	_, err3 := p.ParseBatch([][]string{{"w0"}, words}, decode.N6, 1)
	for i, err := range []error{err1, err2, err3} {
		if !errors.Is(err, decode.ErrTooLong) {
			t.Errorf("call %d: error %v; want ErrTooLong", i+1, err)
		}
	}
	var se *SentenceError
	if !errors.As(err3, &se) || se.Index != 1 {
		t.Errorf("batch error %v; want a *SentenceError for the second sentence", err3)
	}
	if scored != 0 {
		t.Errorf("%d words scored before the refusal", scored)
	}
}

type failingScorer struct{ fixedScorer }

func (failingScorer) Score([]network.Input) ([]network.Output, error) {
	return nil, errors.New("the scorer failed")
}

// TestBatchScoringErrorCounts: a scoring error names its sentences
// counted from 1, as every other error of ParseBatch does.
func TestBatchScoringErrorCounts(t *testing.T) {
	p := &Parser{Vocab: testVocab([]string{"S/VP", "NP", "X"}, []string{"t0", "t1"}), Scorer: failingScorer{forcedScorer()}}
	_, err := p.ParseBatch([][]string{{"w0"}, {"w1"}}, decode.N3, 1)
	if err == nil || !strings.Contains(err.Error(), "scoring sentences 1-2") {
		t.Errorf("error %v; want it to name sentences 1-2", err)
	}
}

// TestScoresAreThoseDecoded: a parse returns the network's scores and the
// model's calibration, so that replaying them with any variant (the
// teaching stepper does, and switches variants) gives the parser's tree
// for that variant. With an offset that makes the discontinuous X too
// costly for n6, the raw scores would give n6 the tree with X.
func TestScoresAreThoseDecoded(t *testing.T) {
	p := &Parser{Vocab: testVocab([]string{"S/VP", "NP", "X"}, []string{"t0", "t1"}), Scorer: forcedScorer(),
		Calibration: Calibration{"n6": {Disc: -20, Gap: -20}}}
	res, err := p.Parse(t.Context(), Request{Words: []string{"w0", "w1", "w2", "w3"}, Variant: "n6", Scores: true})
	if err != nil {
		t.Fatal(err)
	}
	// Each variant replays the returned scores with its own offsets and
	// finds the parser's tree for it (n3 has none).
	for _, v := range []decode.Variant{decode.N6, decode.N3} {
		want, err := p.Parse(t.Context(), Request{Words: res.Words, Variant: v.String()})
		if err != nil {
			t.Fatal(err)
		}
		again, err := decode.Decode(v, res.Calibration.Shifted(v, res.Scores), nil)
		if err != nil {
			t.Fatal(err)
		}
		if again.Score != want.Score || len(again.Items) != len(want.Items) {
			t.Errorf("%v: replaying the returned scores: score %g, %d items; the parse: score %g, %d items", v, again.Score, len(again.Items), want.Score, len(want.Items))
		}
	}
}

// TestParseCancelledBeforeScoring: a parse whose context is cancelled
// already returns its error without running the network.
func TestParseCancelledBeforeScoring(t *testing.T) {
	scored := 0
	p := &Parser{Vocab: testVocab([]string{"S/VP", "NP", "X"}, []string{"t0", "t1"}), Scorer: countingScorer{forcedScorer(), &scored}}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := p.Parse(ctx, Request{Words: []string{"w0", "w1"}, Variant: "n3"}); !errors.Is(err, context.Canceled) || scored != 0 {
		t.Errorf("error %v, %d words scored; want context.Canceled and none", err, scored)
	}
}

// longDistinctWords returns n words of 30 letters of the test models'
// vocabulary, whose first 20 (what a model reads, MaxChars) differ: the
// most memory a sentence of n words can make the network take.
func longDistinctWords(n int) []string {
	const letters = "aeinrstodlgh"
	words := make([]string, n)
	for i := range words {
		w := []byte(strings.Repeat("e", 30))
		for k, j := 0, i; k < 20 && j > 0; k, j = k+1, j/len(letters) {
			w[k] = letters[j%len(letters)]
		}
		words[i] = string(w)
	}
	return words
}

// TestBudgetCountsTheNetwork: the memory budget covers what the network
// allocates, not only the scores and the chart. Scoring a sentence with an
// ensemble of two models allocates at most NeedBytes' Scoring (and at
// least 80% of it: the bound is tight); a budget that holds the scores and
// the chart but not the network refuses the sentence before scoring,
// saying how much each part needs; LongestFitting is the longest sentence
// CheckFits accepts.
func TestBudgetCountsTheNetwork(t *testing.T) {
	ms, err := Read(parsertest.Ensemble(t, []uint64{1, 2}), "pair")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ms.Parser()
	if err != nil {
		t.Fatal(err)
	}
	p.Calibration = Calibration{"n6": {Disc: -1, Gap: -1}}
	words := longDistinctWords(120)
	ins := []network.Input{p.Vocab.Encode(words)}
	if _, err := p.Forward([]network.Input{p.Vocab.Encode(words[:2])}); err != nil { // prepares the weights
		t.Fatal(err)
	}
	for _, m := range ms.Models {
		m.Release()
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	outs, err := p.Forward(ins)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(outs)
	n := len(words)
	need := p.NeedBytes(n, decode.N3)
	got := int64(after.TotalAlloc - before.TotalAlloc)
	t.Logf("%d words, two models: scoring allocated %d KiB, NeedBytes %+v", n, got>>10, need)
	if got > need.Scoring+512<<10 || got < need.Scoring*8/10 { // the runtime allocates some of its own meanwhile
		t.Errorf("scoring %d words allocated %d bytes, NeedBytes says %d", n, got, need.Scoring)
	}
	if need.Calibrated != 0 {
		t.Errorf("n3 has no offsets, yet NeedBytes counts %d bytes of calibrated scores", need.Calibrated)
	}
	if c := p.NeedBytes(n, decode.N6).Calibrated; c != decode.ScoreBytes(n, len(p.Vocab.Labels))*2/3 {
		t.Errorf("n6's calibrated scores: %d bytes, want two thirds of the scores", c)
	}

	scores := decode.ScoreBytes(n, len(p.Vocab.Labels))
	p.Decode.MaxBytes = need.Total() - 1
	if scores > p.Decode.MaxBytes || need.Chart > p.Decode.MaxBytes {
		t.Fatal("the test needs a budget that holds the scores and the chart")
	}
	err = p.CheckFits(n, decode.N3)
	if !errors.Is(err, decode.ErrTooLong) || !strings.Contains(err.Error(), "network") {
		t.Errorf("CheckFits with a budget 1 byte short: %v; want ErrTooLong naming the network", err)
	}
	if _, err := p.ParseWords(words, decode.N3); !errors.Is(err, decode.ErrTooLong) {
		t.Errorf("ParseWords with a budget 1 byte short: %v; want ErrTooLong", err)
	}
	if got := p.LongestFitting(decode.N3, 1000); got != n-1 {
		t.Errorf("LongestFitting = %d, want %d", got, n-1)
	}
	p.Decode.MaxBytes = need.Total()
	if err := p.CheckFits(n, decode.N3); err != nil {
		t.Errorf("CheckFits with the budget NeedBytes gives: %v", err)
	}
}

// aliveScorer scores with s and counts, at each call, the results of
// earlier calls still reachable (after a collection): the scores that
// ParseBatch holds.
type aliveScorer struct {
	scorer.Scorer
	calls, most int
	kept        []weak.Pointer[float32]
}

func (a *aliveScorer) Score(ins []network.Input) ([]network.Output, error) {
	runtime.GC()
	alive := 0
	for _, w := range a.kept {
		if w.Value() != nil {
			alive++
		}
	}
	a.most = max(a.most, alive)
	a.calls++
	outs, err := a.Scorer.Score(ins)
	for _, o := range outs {
		a.kept = append(a.kept, weak.Make(&o.Scores.Cont[0]))
	}
	return outs, err
}

// TestBatchHoldsFewScores: ParseBatch's scorer does not run ahead of the
// decoders: with one worker decoding n6 and chunks of one sentence, the
// scores held at once (those waiting for the decoder, the one decoded, the
// chunk being scored) stay at a few sentences, not the whole batch.
func TestBatchHoldsFewScores(t *testing.T) {
	sc := &aliveScorer{Scorer: forcedScorer()}
	p := &Parser{Vocab: testVocab([]string{"S/VP", "NP", "X"}, []string{"t0", "t1"}), Scorer: sc, ChunkWords: 1}
	sents := make([][]string, 40)
	for i := range sents {
		sents[i] = strings.Fields(strings.Repeat("w1 ", 30))
	}
	res, err := p.ParseBatch(sents, decode.N6, 1)
	if err != nil || len(res) != len(sents) {
		t.Fatalf("%d results, error %v", len(res), err)
	}
	// One waiting in the queue, one being decoded, one the scorer waits
	// to hand on; a fourth for a variable the collector may still see.
	if sc.calls != len(sents) || sc.most > 4 {
		t.Errorf("%d calls; up to %d earlier sentences' scores held at once, want at most 4", sc.calls, sc.most)
	}
}
