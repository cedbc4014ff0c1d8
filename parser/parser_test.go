package parser

import (
	"errors"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/weights"
)

// fixedScorer returns scores and tag logits set by a function of the
// sentence, whatever the input ids.
type fixedScorer struct {
	labels, tags int
	set          func(words int, s *decode.Scores, tags []float32)
}

func (fixedScorer) Backend() string { return "fixed" }
func (fixedScorer) Close() error    { return nil }

func (f fixedScorer) Score(ins []network.Input) ([]network.Output, error) {
	outs := make([]network.Output, len(ins))
	for i, in := range ins {
		n := in.Len()
		s := decode.NewScores(n, f.labels)
		tags := make([]float32, n*f.tags)
		f.set(n, s, tags)
		outs[i] = network.Output{Scores: s, Tags: tags}
	}
	return outs, nil
}

func testVocab(labels, tags []string) *network.Vocab {
	v := network.NewVocab([][]string{{"w0", "w1", "w2", "w3"}}, 1)
	for _, l := range labels {
		v.AddLabel(l)
	}
	for _, t := range tags {
		v.AddTag(t)
	}
	return v
}

func discbracket(t *testing.T, tr *tree.Tree) string {
	t.Helper()
	var sb strings.Builder
	if err := treebank.WriteDiscbracket(&sb, []*tree.Tree{tr}); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(sb.String())
}

// forcedScorer scores, over four words, S/VP on [0,4), a discontinuous X on
// [0,1)+[2,3) and NP on the gap filler [1,2); every other span and label
// scores -10 (null). Word i gets tag i%2.
func forcedScorer() fixedScorer {
	const S, NP, X = 0, 1, 2
	return fixedScorer{labels: 3, tags: 2, set: func(n int, s *decode.Scores, tags []float32) {
		for _, t := range [][]float32{s.Cont, s.Disc, s.Gap} {
			for i := range t {
				t[i] = -10
			}
		}
		if n == 4 {
			s.Cont[s.Index(0, 3, S)] = 10
			s.Cont[s.Index(1, 1, NP)] = 3
			s.Disc[s.Index(0, 2, X)] = 5
			s.Gap[s.Index(1, 1, X)] = 5
		}
		for i := 0; i < n; i++ {
			tags[i*2+i%2] = 1
		}
	}}
}

func TestParseWordsForcedScores(t *testing.T) {
	p := &Parser{Vocab: testVocab([]string{"S/VP", "NP", "X"}, []string{"t0", "t1"}), Scorer: forcedScorer()}
	words := []string{"w0", "w1", "w2", "w3"}
	want := "(ROOT (S (VP (X (t0 0=w0) (t0 2=w2)) (NP (t1 1=w1)) (t1 3=w3))))"
	for _, v := range []decode.Variant{decode.N3, decode.N4, decode.N5WN, decode.N6} {
		r, err := p.ParseWords(words, v)
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if got := discbracket(t, r.Tree); got != want {
			t.Errorf("%s: got %s, want %s", v, got, want)
		}
		if got, want := r.Derivation.Score, float32(10+3+5+5); got != want {
			t.Errorf("%s: score %g, want %g", v, got, want)
		}
		if got := strings.Join(r.Tags, " "); got != "t0 t1 t0 t1" {
			t.Errorf("%s: tags %s", v, got)
		}
	}
	// The continuous decoder cannot build X: S/VP over NP and bare words.
	r, err := p.ParseWords(words, decode.Continuous)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := discbracket(t, r.Tree), "(ROOT (S (VP (t0 0=w0) (NP (t1 1=w1)) (t0 2=w2) (t1 3=w3))))"; got != want {
		t.Errorf("continuous: got %s, want %s", got, want)
	}
}

// TestParseWordsForcedModel forces a real network's output: with every
// weight zero, each score is the constant term of its biaffine and each tag
// logit the tagger's bias.
func TestParseWordsForcedModel(t *testing.T) {
	v := testVocab([]string{"NP", "S/VP"}, []string{"n", "ww"})
	c := network.Tiny().WithVocab(v)
	c.LabelMLP, c.SpanMLP, c.LSTM1Hidden, c.LSTM2Hidden = 4, 4, 4, 4
	m, err := network.New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	m.Params.Zero()
	d := c.LabelMLP
	for _, kind := range []string{"cont", "disc", "gap"} {
		w := m.Params.Get(kind + ".label.biaffine").Data
		for a := 0; a < c.Labels; a++ {
			w[a*(d+1)*(d+1)+d*(d+1)+d] = -5
		}
	}
	m.Params.Get("cont.label.biaffine").Data[1*(d+1)*(d+1)+d*(d+1)+d] = 5 // S/VP everywhere
	m.Params.Get("tagger.b").Data[1] = 1                                  // ww everywhere
	p, err := New(m, v)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.ParseWords([]string{"Jan", "slaapt"}, decode.N3)
	if err != nil {
		t.Fatal(err)
	}
	want := "(ROOT (S (VP (S (VP (ww 0=Jan))) (S (VP (ww 1=slaapt))))))"
	if got := discbracket(t, r.Tree); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if r.Timing.Score <= 0 || r.Timing.Decode <= 0 {
		t.Errorf("timings not measured: %+v", r.Timing)
	}
}

func TestParseBatchMatchesParseWords(t *testing.T) {
	v := testVocab([]string{"NP", "S", "VP/V"}, []string{"n", "ww", "lid"})
	c := network.Tiny().WithVocab(v)
	c.LabelMLP, c.SpanMLP, c.LSTM1Hidden, c.LSTM2Hidden, c.WordDim, c.CharHidden = 8, 8, 8, 8, 8, 8
	m, err := network.New(c, 7)
	if err != nil {
		t.Fatal(err)
	}
	for _, tn := range m.Params.Tensors() { // non-zero biaffines, so that trees vary
		for i := range tn.Data {
			tn.Data[i] += float32((i*7919)%13-6) / 10
		}
	}
	p, err := New(m, v)
	if err != nil {
		t.Fatal(err)
	}
	p.ChunkWords = 7 // several chunks
	sents := [][]string{{"w0"}, {"w1", "w2", "w0"}, {}, {"w3", "w3", "w1", "onbekend", "w2"}, {"w2", "w1"}, {"w0", "w1", "w2", "w3", "w0", "w1"}}
	for _, workers := range []int{1, 2, 3} {
		got, err := p.ParseBatch(sents, decode.N3, workers)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range sents {
			want, err := p.ParseWords(s, decode.N3)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := discbracket(t, got[i].Tree), discbracket(t, want.Tree); g != w {
				t.Errorf("workers %d sentence %d: batch %s, single %s", workers, i, g, w)
			}
			if got[i].Derivation.Score != want.Derivation.Score {
				t.Errorf("workers %d sentence %d: score %g vs %g", workers, i, got[i].Derivation.Score, want.Derivation.Score)
			}
		}
	}
}

func TestParseBatchErrors(t *testing.T) {
	p := &Parser{Vocab: testVocab([]string{"S/VP", "NP", "X"}, []string{"t0", "t1"}), Scorer: forcedScorer()}
	p.Decode.MaxBytes = 512 // enough for n6 over 1 word, too small for 4
	_, err := p.ParseBatch([][]string{{"w0"}, {"w0", "w1", "w2", "w3"}}, decode.N6, 2)
	if !errors.Is(err, decode.ErrTooLong) || !strings.Contains(err.Error(), "sentence 2") {
		t.Errorf("got %v, want ErrTooLong for sentence 2 (counted from 1)", err)
	}
	if _, err := (&Parser{}).ParseWords([]string{"a"}, decode.N3); err == nil {
		t.Error("parser without vocabulary: no error")
	}
	m, err := network.New(network.Tiny().WithVocab(testVocab([]string{"A"}, []string{"t"})), 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(m, testVocab([]string{"A", "B"}, []string{"t"})); err == nil || !strings.Contains(err.Error(), "labels") {
		t.Errorf("mismatched vocabulary: got %v", err)
	}
}

func TestLoadWeightsFile(t *testing.T) {
	v := testVocab([]string{"NP", "S/VP"}, []string{"n", "ww"})
	c := network.Tiny().WithVocab(v)
	c.LabelMLP, c.SpanMLP, c.LSTM1Hidden, c.LSTM2Hidden = 4, 4, 4, 4
	m, err := network.New(c, 3)
	if err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/m.safetensors"
	if err := weights.WriteFile(path, m.Params, weights.Meta{Vocab: v}, weights.Float32); err != nil {
		t.Fatal(err)
	}
	p, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := (&Parser{Model: m, Vocab: v}).ParseWords([]string{"w0", "w1", "w2"}, decode.N3)
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.ParseWords([]string{"w0", "w1", "w2"}, decode.N3)
	if err != nil {
		t.Fatal(err)
	}
	if got.Derivation.Score != want.Derivation.Score || discbracket(t, got.Tree) != discbracket(t, want.Tree) {
		t.Errorf("loaded model parses %s (%g), original %s (%g)", discbracket(t, got.Tree), got.Derivation.Score, discbracket(t, want.Tree), want.Derivation.Score)
	}
	if _, err := Load(path + ".missing"); err == nil {
		t.Error("missing file: no error")
	}
}
