package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/discspan/discspan/internal/cli"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/webgpu"
	"github.com/discspan/discspan/weights"
)

// scoreBackends are the backends "bench score" knows, in the order of its
// help text.
var scoreBackends = []string{"cpu", "webgpu", "webgpu-f16"}

// scoreBenchRow is one backend's line of "bench score": a table row, or one
// JSON object with --json. Err is set, and the timings are zero, when the
// backend could not be measured; Unavailable says that it is missing here
// (no adapter, a shader that does not compile, a lost device) rather than
// broken.
type scoreBenchRow struct {
	Backend   string `json:"backend"`
	Device    string `json:"device,omitempty"`
	Input     string `json:"input"`
	Weights   string `json:"weights"`
	Models    int    `json:"models"`
	Sentences int    `json:"sentences"`
	Words     int    `json:"words"`
	Batch     int    `json:"batch"`
	Runs      int    `json:"runs"`
	// SetupSeconds is the construction of the backend (for WebGPU: adapter
	// and device, buffers, shader compilation, weight upload).
	SetupSeconds float64 `json:"setup_s,omitempty"`
	// FirstPassSeconds is the warm-up pass over the whole file, the first
	// Score calls after the setup.
	FirstPassSeconds float64 `json:"first_pass_s,omitempty"`
	// BestSeconds and MedianSeconds are over the timed passes: the sum of
	// the Score calls of a pass over the whole file (scoring only).
	BestSeconds   float64 `json:"best_s,omitempty"`
	MedianSeconds float64 `json:"median_s,omitempty"`
	// SentencesPerSecond is Sentences / BestSeconds.
	SentencesPerSecond float64 `json:"sentences_per_s,omitempty"`
	// MaxAbsDiff and MaxAbsDiffTags are the largest absolute differences,
	// over every pass and every sentence, between this backend's span
	// scores (cont, disc, gap) and tag logits and those of the CPU
	// reference (its first pass); nil when not measured.
	MaxAbsDiff     *float64 `json:"max_abs_diff,omitempty"`
	MaxAbsDiffTags *float64 `json:"max_abs_diff_tags,omitempty"`
	Err            string   `json:"error,omitempty"`
	Unavailable    bool     `json:"unavailable,omitempty"`
}

// scoreBench is one "bench score" run: the encoded sentences and the
// models, the CPU reference outputs once computed, and where rows go.
type scoreBench struct {
	models    []*network.Model
	ins       []network.Input
	longest   int
	batch     int
	runs      int
	reference []network.Output // the CPU's first pass, once run
	base      scoreBenchRow    // fields every row shares
}

func runBenchScore(args []string, stdout io.Writer) error {
	fs := newFlags("bench score", "--input FILE [--weights W] [--backends cpu,webgpu] [--batch N] [--runs R] [--json]", stdout)
	weightsPath := fs.String("weights", "", "weights file, or several separated by commas for an ensemble (default: the shipped default model, embedded)")
	input := fs.String("input", "", "sentences to score: a treebank (.export/.discbracket/...: its words) or text, one sentence a line (required)")
	tokenized := fs.Bool("tokenized", false, "text input is already tokenized (tokens separated by spaces)")
	backendList := fs.String("backends", "cpu,webgpu", "backends to measure, separated by commas: "+strings.Join(scoreBackends, ", ")+" (webgpu-f16: float16 weights on the device)")
	batch := fs.Int("batch", 64, "sentences per Score call")
	runs := fs.Int("runs", 3, "timed passes over the whole file after the warm-up pass")
	asJSON := fs.Bool("json", false, "print one JSON object a line per backend instead of a table")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, rest, 0, "no positional arguments (use --input)"); err != nil {
		return err
	}
	backends, err := parseScoreBackends(*backendList)
	if err != nil {
		return err
	}
	if *batch < 1 || *runs < 1 {
		return fmt.Errorf("%w: --batch and --runs must be >= 1 (got %d and %d)", errUsage, *batch, *runs)
	}
	if *input == "" {
		return fmt.Errorf("%w: --input is required (a treebank or a text file)", errUsage)
	}
	models, vocab, name, err := loadScoreModels(*weightsPath)
	if err != nil {
		return fmt.Errorf("loading --weights: %w", err)
	}
	sents, err := readSentences(*input, *tokenized)
	if err != nil {
		return fmt.Errorf("reading --input: %w", err)
	}
	sents = slices.DeleteFunc(sents, func(s []string) bool { return len(s) == 0 }) // blank lines
	if len(sents) == 0 {
		return fmt.Errorf("reading --input %s: no sentences", *input)
	}
	b := &scoreBench{models: models, batch: *batch, runs: *runs, ins: make([]network.Input, len(sents))}
	words := 0
	for i, s := range sents {
		b.ins[i] = vocab.Encode(s)
		words += len(s)
		b.longest = max(b.longest, len(s))
	}
	b.base = scoreBenchRow{Input: *input, Weights: name, Models: len(models), Sentences: len(sents), Words: words, Batch: *batch, Runs: *runs}

	w := bufio.NewWriter(stdout)
	defer w.Flush()
	if !*asJSON {
		fmt.Fprintf(w, "weights %s (%d model(s)); %s: %d sentences, %d words (longest %d); batch %d, %d timed pass(es) after one warm-up pass\n\n",
			name, len(models), *input, len(sents), words, b.longest, *batch, *runs)
		fmt.Fprintln(w, "| backend | device | sentences | words | setup s | first pass s | best s | median s | sentences/s | max abs diff vs cpu (scores) | (tags) |")
		fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
		if err := w.Flush(); err != nil {
			return err
		}
	}
	var failed []string
	for _, be := range backends {
		row := b.measure(be)
		if row.Err != "" && !row.Unavailable {
			failed = append(failed, be+": "+row.Err)
		}
		if *asJSON {
			if err := json.NewEncoder(w).Encode(row); err != nil {
				return err
			}
		} else {
			fmt.Fprintln(w, row.markdown())
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("bench score: %s", strings.Join(failed, "; "))
	}
	return nil
}

// parseScoreBackends splits a --backends list, rejecting unknown names and
// repeats, and moves "cpu" first: its first pass is the reference the
// other backends are compared with.
func parseScoreBackends(list string) ([]string, error) {
	var out []string
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(strings.ToLower(name))
		if name == "" {
			continue
		}
		if !slices.Contains(scoreBackends, name) {
			return nil, fmt.Errorf("%w: unknown backend %q in --backends (want %s)", errUsage, name, strings.Join(scoreBackends, ", "))
		}
		if slices.Contains(out, name) {
			return nil, fmt.Errorf("%w: backend %q named twice in --backends", errUsage, name)
		}
		out = append(out, name)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: --backends names no backend (want some of %s)", errUsage, strings.Join(scoreBackends, ", "))
	}
	if i := slices.Index(out, "cpu"); i > 0 {
		out = append([]string{"cpu"}, slices.Delete(out, i, i+1)...)
	}
	return out, nil
}

// loadScoreModels returns the models of the weights named as parse's
// --weights (see loadParser): the embedded default model when path is
// empty, else one file or several separated by commas, an ensemble file
// giving all its members. It checks that the models fit the vocabulary, and
// returns a name for the weights.
func loadScoreModels(path string) ([]*network.Model, *network.Vocab, string, error) {
	var (
		vocab   *network.Vocab
		members []*network.Params
		name    = path
	)
	if path == "" {
		f, err := weights.Default()
		if err != nil {
			return nil, nil, "", err
		}
		vocab, members, name = f.Meta.Vocab, f.Members, weights.DefaultName+" (embedded)"
	} else {
		first, ms, _, err := readModelFiles(strings.Split(path, ","))
		if err != nil {
			return nil, nil, "", err
		}
		vocab, members = first.Meta.Vocab, ms
	}
	if len(members) == 0 {
		return nil, nil, "", fmt.Errorf("%s: no parameters", name)
	}
	models := make([]*network.Model, len(members))
	for k, p := range members {
		models[k] = &network.Model{Params: p}
		if _, err := parser.New(models[k], vocab); err != nil { // sizes agree
			return nil, nil, "", fmt.Errorf("%s, model %d: %w", name, k+1, err)
		}
	}
	return models, vocab, name, nil
}

// open builds the scorer of a backend (an ensemble's mean over its models)
// and describes the device it runs on.
func (b *scoreBench) open(backend string) (scorer.Scorer, string, error) {
	if backend == "cpu" {
		return scorer.MeanCPU(b.models), cpuDescription(), nil
	}
	o := webgpu.Options{MaxWords: max(webgpu.DefaultMaxWords, b.longest)}
	if backend == "webgpu-f16" {
		o.Weights = webgpu.WeightsF16
	}
	members := make([]scorer.Scorer, 0, len(b.models))
	closeAll := func() {
		for _, s := range members {
			s.Close()
		}
	}
	device := ""
	for k, m := range b.models {
		s, err := webgpu.New(m.Params, o)
		if err != nil {
			closeAll()
			if len(b.models) > 1 {
				err = fmt.Errorf("model %d: %w", k+1, err)
			}
			return nil, "", err
		}
		if k == 0 {
			a := s.Adapter()
			device = fmt.Sprintf("%s (%s, %s)", a.Name, a.Backend, a.Type)
			if a.Software {
				device += ", software"
			}
		}
		members = append(members, s)
	}
	return scorer.Mean(members...), device, nil
}

// cpuDescription names the CPU the reference backend runs on: its model
// (from /proc/cpuinfo where there is one), the architecture and the
// goroutines' parallelism.
func cpuDescription() string {
	desc := fmt.Sprintf("%s, GOMAXPROCS %d", runtime.GOARCH, runtime.GOMAXPROCS(0))
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(data)) {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				return strings.TrimSpace(v) + ", " + desc
			}
		}
	}
	return desc
}

// measure builds the backend, runs the warm-up pass and the timed passes
// and returns its row. Failures are reported in the row.
func (b *scoreBench) measure(backend string) scoreBenchRow {
	row := b.base
	row.Backend = backend
	fail := func(err error) scoreBenchRow {
		row.Err = cli.OneLine(err)
		row.Unavailable = errors.Is(err, scorer.ErrUnavailable)
		row.SetupSeconds, row.FirstPassSeconds = 0, 0
		return row
	}
	if b.reference == nil && backend != "cpu" {
		// Only when "cpu" is not measured (parseScoreBackends puts it first).
		ref, _, err := b.pass(scorer.MeanCPU(b.models), "cpu reference", nil)
		if err != nil {
			return fail(fmt.Errorf("cpu reference: %w", err))
		}
		b.reference = ref
	}
	start := time.Now()
	s, device, err := b.open(backend)
	if err != nil {
		return fail(err)
	}
	defer s.Close()
	row.Device = device
	row.SetupSeconds = time.Since(start).Seconds()

	var diff scoreDiff
	first, keep := &diff, false
	if b.reference == nil { // the CPU's first pass becomes the reference
		first, keep = nil, true
	}
	outs, secs, err := b.pass(s, backend+" first pass", first)
	if err != nil {
		return fail(fmt.Errorf("first pass: %w", err))
	}
	row.FirstPassSeconds = secs
	if keep {
		b.reference = outs
	}
	times := make([]float64, b.runs)
	for r := range times {
		runtime.GC() // the garbage of the previous pass is not this one's
		if _, times[r], err = b.pass(s, fmt.Sprintf("%s pass %d/%d", backend, r+1, b.runs), &diff); err != nil {
			return fail(fmt.Errorf("timed pass %d: %w", r+1, err))
		}
	}
	slices.Sort(times)
	row.BestSeconds = times[0]
	row.MedianSeconds = times[len(times)/2]
	if len(times)%2 == 0 {
		row.MedianSeconds = (times[len(times)/2-1] + times[len(times)/2]) / 2
	}
	row.SentencesPerSecond = float64(row.Sentences) / row.BestSeconds
	row.MaxAbsDiff, row.MaxAbsDiffTags = &diff.scores, &diff.tags
	return row
}

// pass scores every sentence in batches of b.batch and returns the summed
// time of the Score calls. With diff nil it returns the outputs; otherwise
// it compares them with the reference batch by batch (outside the timing)
// and returns none.
func (b *scoreBench) pass(s scorer.Scorer, what string, diff *scoreDiff) ([]network.Output, float64, error) {
	bar := cli.NewProgress(len(b.ins), what)
	defer bar.Finish()
	var (
		all     []network.Output
		elapsed time.Duration
	)
	for lo := 0; lo < len(b.ins); lo += b.batch {
		hi := min(lo+b.batch, len(b.ins))
		start := time.Now()
		outs, err := s.Score(b.ins[lo:hi])
		elapsed += time.Since(start)
		if err != nil {
			return nil, 0, fmt.Errorf("sentences %d-%d: %w", lo+1, hi, err)
		}
		if len(outs) != hi-lo {
			return nil, 0, fmt.Errorf("sentences %d-%d: %d results for %d sentences", lo+1, hi, len(outs), hi-lo)
		}
		if diff == nil {
			all = append(all, outs...)
		} else if err := diff.add(b.reference[lo:hi], outs); err != nil {
			return nil, 0, fmt.Errorf("sentences %d-%d: %w", lo+1, hi, err)
		}
		bar.Set(hi)
	}
	return all, elapsed.Seconds(), nil
}

// scoreDiff accumulates the largest absolute differences from the
// reference of span scores and of tag logits.
type scoreDiff struct{ scores, tags float64 }

// add compares outputs with the reference outputs of the same sentences.
func (d *scoreDiff) add(ref, outs []network.Output) error {
	for i := range outs {
		r, o := ref[i], outs[i]
		if r.Scores == nil || o.Scores == nil || r.Scores.N != o.Scores.N || r.Scores.L != o.Scores.L || len(r.Tags) != len(o.Tags) {
			return fmt.Errorf("sentence %d: result shaped unlike the CPU reference's", i+1)
		}
		for _, p := range [][2][]float32{{r.Scores.Cont, o.Scores.Cont}, {r.Scores.Disc, o.Scores.Disc}, {r.Scores.Gap, o.Scores.Gap}} {
			d.scores = maxAbsDiff(d.scores, p[0], p[1])
		}
		d.tags = maxAbsDiff(d.tags, r.Tags, o.Tags)
	}
	return nil
}

// maxAbsDiff returns the largest of m and |a[j]-b[j]| (+Inf where a value
// is NaN or the lengths differ).
func maxAbsDiff(m float64, a, b []float32) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	for j := range a {
		d := math.Abs(float64(a[j]) - float64(b[j]))
		if math.IsNaN(d) {
			return math.Inf(1)
		}
		m = max(m, d)
	}
	return m
}

// markdown formats the row for the table of runBenchScore.
func (r scoreBenchRow) markdown() string {
	if r.Err != "" {
		what := "failed"
		if r.Unavailable {
			what = "unavailable"
		}
		return fmt.Sprintf("| %s | %s: %s | %d | %d | - | - | - | - | - | - | - |", r.Backend, what, strings.ReplaceAll(r.Err, "|", "/"), r.Sentences, r.Words)
	}
	return fmt.Sprintf("| %s | %s | %d | %d | %.3f | %.3f | %.3f | %.3f | %.1f | %.2g | %.2g |",
		r.Backend, r.Device, r.Sentences, r.Words, r.SetupSeconds, r.FirstPassSeconds, r.BestSeconds, r.MedianSeconds,
		r.SentencesPerSecond, *r.MaxAbsDiff, *r.MaxAbsDiffTags)
}
