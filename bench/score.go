package bench

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/discspan/discspan/internal/cli"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/webgpu"
)

// ScoreBackends are the backends Scoring.Measure knows: the CPU reference;
// WebGPU with float32 or float16 weights, an ensemble's models on one
// device and averaged there (webgpu.NewEnsemble, as the app scores); and
// WebGPU with a scorer per model, each on a device of its own, averaged on
// the CPU (scorer.Mean), for comparison.
var ScoreBackends = []string{"cpu", "webgpu", "webgpu-f16", "webgpu-per-model"}

// ScoreRow is one backend's line of a scoring benchmark (discspan bench
// score): a table row, or one
// JSON object with --json. Err is set, and the timings are zero, when the
// backend could not be measured; Unavailable says that it is missing here
// (no adapter, a shader that does not compile, a lost device) rather than
// broken.
type ScoreRow struct {
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
	// SelfCheckSeconds is the part of SetupSeconds that WebGPU's
	// self-check took (webgpu.SelfCheck: a canary batch on the device and
	// on the CPU reference), summed over the ensemble's models.
	SelfCheckSeconds float64 `json:"self_check_s,omitempty"`
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
	// Phases is where a timed pass's time went on WebGPU (webgpu.Phases,
	// averaged over the timed passes; for webgpu-per-model summed over the
	// models, which score at the same time: the sum can exceed the pass);
	// nil for the CPU.
	Phases *webgpu.Phases `json:"phases_per_pass,omitempty"`
	// MaxWords is the WebGPU scorer's longest sentence (webgpu.Options):
	// the self-check scores a sentence of that length; 0 for the CPU.
	MaxWords    int    `json:"max_words,omitempty"`
	Err         string `json:"error,omitempty"`
	Unavailable bool   `json:"unavailable,omitempty"`
}

// Scoring is one "bench score" run: the encoded sentences and the
// models, the CPU reference outputs once computed, and where rows go.
type Scoring struct {
	Models []*network.Model
	Ins    []network.Input
	// Batch is the number of sentences per Score call, Runs the number
	// of timed passes after the warm-up pass.
	Batch, Runs int
	// MaxWords is the longest sentence the WebGPU scorers are built for
	// (0: webgpu.DefaultMaxWords, the app's), raised to the input's
	// longest.
	MaxWords int
	// Base holds the fields every row shares (input, weights, counts).
	Base ScoreRow

	reference []network.Output // the CPU's first pass, once run
}

// maxWords returns the WebGPU scorers' longest sentence: b.MaxWords (0:
// webgpu.DefaultMaxWords), raised to the input's longest sentence.
func (b *Scoring) maxWords() int {
	limit := cmp.Or(b.MaxWords, webgpu.DefaultMaxWords)
	for _, in := range b.Ins {
		limit = max(limit, in.Len())
	}
	return limit
}

// open builds the scorer of a backend (an ensemble's mean over its
// models) and returns it, its WebGPU scorers (one, or one per model), the
// device it runs on and the self-check's seconds.
func (b *Scoring) open(backend string) (scorer.Scorer, []scorer.Scorer, string, float64, error) {
	if backend == "cpu" {
		return scorer.MeanCPU(b.Models), nil, CPUDescription(), 0, nil
	}
	o := webgpu.Options{MaxWords: b.maxWords()}
	if backend == "webgpu-f16" {
		o.Weights = webgpu.WeightsF16
	}
	if backend != "webgpu-per-model" {
		params := make([]*network.Params, len(b.Models))
		for k, m := range b.Models {
			params[k] = m.Params
		}
		s, err := webgpu.NewEnsemble(params, o)
		if err != nil {
			return nil, nil, "", 0, err
		}
		members := []scorer.Scorer{s}
		return s, members, s.Adapter().String(), selfCheckSeconds(members), nil
	}
	members := make([]scorer.Scorer, 0, len(b.Models))
	closeAll := func() {
		for _, s := range members {
			s.Close()
		}
	}
	device := ""
	for k, m := range b.Models {
		s, err := webgpu.New(m.Params, o)
		if err != nil {
			closeAll()
			if len(b.Models) > 1 {
				err = fmt.Errorf("model %d: %w", k+1, err)
			}
			return nil, nil, "", 0, err
		}
		if k == 0 {
			device = s.Adapter().String()
		}
		members = append(members, s)
	}
	return scorer.Mean(members...), members, device, selfCheckSeconds(members), nil
}

// selfCheckSeconds sums the self-check time of the WebGPU scorers among
// members.
func selfCheckSeconds(members []scorer.Scorer) float64 {
	total := 0.0
	for _, s := range members {
		if w, ok := s.(*webgpu.Scorer); ok {
			total += w.SelfCheck().Duration.Seconds()
		}
	}
	return total
}

// CPUDescription names the CPU the reference backend runs on: its model
// (from /proc/cpuinfo where there is one), the architecture and the
// goroutines' parallelism.
func CPUDescription() string {
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

// Measure builds the backend, runs the warm-up pass and the timed passes
// and returns its row. Failures are reported in the row.
func (b *Scoring) Measure(backend string) ScoreRow {
	row := b.Base
	row.Backend = backend
	fail := func(err error) ScoreRow {
		row.Err = cli.OneLine(err)
		row.Unavailable = errors.Is(err, scorer.ErrUnavailable)
		row.SetupSeconds, row.FirstPassSeconds = 0, 0
		return row
	}
	if b.reference == nil && backend != "cpu" {
		// Only when "cpu" is not measured (parseScoreBackends puts it first).
		ref, _, err := b.pass(scorer.MeanCPU(b.Models), "cpu reference", nil)
		if err != nil {
			return fail(fmt.Errorf("cpu reference: %w", err))
		}
		b.reference = ref
	}
	start := time.Now()
	s, members, device, selfCheck, err := b.open(backend)
	if err != nil {
		return fail(err)
	}
	defer s.Close()
	row.Device = device
	row.SelfCheckSeconds = selfCheck
	if backend != "cpu" {
		row.MaxWords = b.maxWords()
	}
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
	var gpus []*webgpu.Scorer
	for _, m := range members {
		if w, ok := m.(*webgpu.Scorer); ok {
			w.ResetPhases()
			gpus = append(gpus, w)
		}
	}
	times := make([]float64, b.Runs)
	for r := range times {
		runtime.GC() // the garbage of the previous pass is not this one's
		if _, times[r], err = b.pass(s, fmt.Sprintf("%s pass %d/%d", backend, r+1, b.Runs), &diff); err != nil {
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
	if len(gpus) > 0 {
		var sum webgpu.Phases
		for _, w := range gpus {
			sum = sum.Add(w.Phases())
		}
		sum = sum.Scale(1 / float64(b.Runs))
		row.Phases = &sum
	}
	return row
}

// pass scores every sentence in batches of b.Batch and returns the summed
// time of the Score calls. With diff nil it returns the outputs; otherwise
// it compares them with the reference batch by batch (outside the timing)
// and returns none.
func (b *Scoring) pass(s scorer.Scorer, what string, diff *scoreDiff) ([]network.Output, float64, error) {
	bar := cli.NewProgress(len(b.Ins), what)
	defer bar.Finish()
	var (
		all     []network.Output
		elapsed time.Duration
	)
	for lo := 0; lo < len(b.Ins); lo += b.Batch {
		hi := min(lo+b.Batch, len(b.Ins))
		start := time.Now()
		outs, err := s.Score(b.Ins[lo:hi])
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
		c := scorer.Compare(o, r)
		d.scores, d.tags = max(d.scores, c.Scores), max(d.tags, c.Tags)
	}
	return nil
}

// Markdown formats the row as a line of the table whose header is
// ScoreHeader.
func (r ScoreRow) Markdown() string {
	if r.Err != "" {
		what := "failed"
		if r.Unavailable {
			what = "unavailable"
		}
		return fmt.Sprintf("| %s | %s: %s | %d | %d | - | - | - | - | - | - | - | - |", r.Backend, what, strings.ReplaceAll(r.Err, "|", "/"), r.Sentences, r.Words)
	}
	return fmt.Sprintf("| %s | %s | %d | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.1f | %.2g | %.2g |",
		r.Backend, r.Device, r.Sentences, r.Words, r.SetupSeconds, r.SelfCheckSeconds, r.FirstPassSeconds, r.BestSeconds, r.MedianSeconds,
		r.SentencesPerSecond, *r.MaxAbsDiff, *r.MaxAbsDiffTags)
}

// ScoreHeader is the header of the Markdown table of ScoreRow.Markdown.
const ScoreHeader = "| backend | device | sentences | words | setup s | of it self-check s | first pass s | best s | median s | sentences/s | max abs diff vs cpu (scores) | (tags) |\n|---|---|---|---|---|---|---|---|---|---|---|---|"
