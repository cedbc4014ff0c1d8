package parser

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/eval"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/weights"
)

// Discontinuity calibration. A model trained with cross-entropy on spans
// predicts fewer discontinuous constituents than gold has with n3 (416
// against 617 on the Alpino test set for the model shipped before) and more
// with n6. An offset added to every disc score, or to every gap score,
// moves that number; Calibrate chooses one per decoder variant on the
// development set so that the number predicted matches gold, and the
// weights file stores it (metadata entry "calibration"), so that every
// parser of the file applies it.

// CalibrationKey is the weights metadata entry holding a Calibration as
// JSON: {"n3":{"disc":0.8,"gap":0},...}.
const CalibrationKey = "calibration"

// Offsets are the score offsets of one decoder variant: Disc is added to
// every disc score and Gap to every gap score before decoding.
type Offsets struct {
	Disc float32 `json:"disc"`
	Gap  float32 `json:"gap"`
}

// Calibration holds the offsets of each decoder variant, by variant name;
// a variant without an entry decodes the scores as they are.
type Calibration map[string]Offsets

// CalibrationOf returns the calibration stored in a weights file's
// metadata, nil when there is none.
func CalibrationOf(m weights.Meta) (Calibration, error) {
	raw, ok := m.Extra[CalibrationKey]
	if !ok {
		return nil, nil
	}
	var c Calibration
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		return nil, fmt.Errorf("parser: metadata %q: %w", CalibrationKey, err)
	}
	for v, o := range c {
		if _, err := decode.ParseVariant(v); err != nil {
			return nil, fmt.Errorf("parser: metadata %q: %w", CalibrationKey, err)
		}
		if !finite(o.Disc) || !finite(o.Gap) {
			return nil, fmt.Errorf("parser: metadata %q: %s offsets %+v are not finite", CalibrationKey, v, o)
		}
		if abs32(o.Disc) > MaxOffset || abs32(o.Gap) > MaxOffset {
			return nil, fmt.Errorf("parser: metadata %q: %s offsets %+v: beyond ±%d (Calibrate never goes past ±%d)", CalibrationKey, v, o, MaxOffset, 1<<maxBisect)
		}
	}
	return c, nil
}

func finite(f float32) bool { return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0) }

func abs32(f float32) float32 { return float32(math.Abs(float64(f))) }

// MaxOffset bounds the offsets a weights file may store: twice the most
// Calibrate tries (2^maxBisect). Larger ones would only turn the scores
// into nonsense (1e30 made every constituent the same label), or make
// them overflow what the decoders take (decode.MaxScore).
const MaxOffset = 2 << maxBisect

// String returns the calibration as its metadata JSON, variants sorted.
func (c Calibration) String() string {
	b, _ := json.Marshal(c) // map keys are sorted; float32s always encode
	return string(b)
}

// Shifted returns s with the variant's offsets added, as a new Scores (the
// caller's, which the app's memo keeps for other variants, stay as they
// are), or s itself when the variant has no offsets: the scores the
// variant decodes. Cost O(n² L).
func (c Calibration) Shifted(v decode.Variant, s *decode.Scores) *decode.Scores {
	o, ok := c[v.String()]
	if !ok || o == (Offsets{}) {
		return s
	}
	out := &decode.Scores{N: s.N, L: s.L, Cont: s.Cont, Disc: make([]float32, len(s.Disc)), Gap: make([]float32, len(s.Gap))}
	// Entries with x > y are 0 and never read; shifting them too is harmless.
	for i, d := range s.Disc {
		out.Disc[i] = d + o.Disc
	}
	for i, g := range s.Gap {
		out.Gap[i] = g + o.Gap
	}
	return out
}

// CalibrationTrial is one decoding of the development set in Calibrate.
type CalibrationTrial struct {
	Offsets  Offsets
	Disc     int     // discontinuous constituents predicted
	F1       float64 // labelled F1 (all sentences)
	DiscF1   float64
	GoldDisc int // discontinuous constituents in gold
}

// Calibrate chooses the offsets of variant v on the development trees gold:
// the sentences are scored once, then decoded with disc offsets found by
// bisection so that the number of discontinuous constituents predicted
// matches gold's (within 1%). The gap offset stays 0: every discontinuous
// constituent of block degree 2 takes exactly one disc and one gap score,
// so a gap offset moves the trees exactly as the same disc offset does
// (measured: identical trials). trials lists every decoding (the first
// without offsets) for the report. The parser's own calibration is not
// used. Cost: one forward pass (in ParseBatch's chunks, recorded while the
// first trial decodes) and at most 2*maxBisect+1 decodings.
func (p *Parser) Calibrate(ctx context.Context, gold []*tree.Tree, v decode.Variant, workers int) (Offsets, []CalibrationTrial, error) {
	if err := p.check(); err != nil {
		return Offsets{}, nil, err
	}
	words := make([][]string, len(gold))
	for i, t := range gold {
		words[i] = t.Words()
	}
	recorder := &scorer.Recorder{Scorer: p.scorer()}
	replayed := *p
	replayed.Scorer = recorder
	replayed.Decode.Context = ctx
	var trials []CalibrationTrial
	try := func(o Offsets) (CalibrationTrial, error) {
		if r, ok := replayed.Scorer.(*scorer.Replay); ok {
			r.Rewind()
		}
		replayed.Calibration = Calibration{v.String(): o}
		results, err := replayed.ParseBatch(words, v, workers)
		if err != nil {
			return CalibrationTrial{}, err
		}
		cand := make([]*tree.Tree, len(results))
		for i, r := range results {
			cand[i] = r.Tree
		}
		res, err := eval.Evaluate(gold, cand, eval.ProperPrm())
		if err != nil {
			return CalibrationTrial{}, fmt.Errorf("parser: calibrate: %w", err)
		}
		t := CalibrationTrial{Offsets: o, Disc: res.All.CandDiscBrackets, F1: res.All.F1, DiscF1: res.All.DiscF1, GoldDisc: res.All.GoldDiscBrackets}
		trials = append(trials, t)
		return t, nil
	}
	base, err := try(Offsets{})
	if err != nil {
		return Offsets{}, nil, err
	}
	replayed.Scorer = &scorer.Replay{Results: recorder.Recorded()}
	best, err := bisectDisc(base, func(d float32) Offsets { return Offsets{Disc: d} }, try)
	if err != nil {
		return Offsets{}, trials, err
	}
	return best.Offsets, trials, nil
}

// maxBisect bounds the decodings of one bisection.
const maxBisect = 9

// bisectDisc finds an offset d, applied through kind, whose decoding
// predicts gold's number of discontinuous constituents (within 1%), by
// bisection on d (the number predicted grows with d). It returns the
// closest trial found.
func bisectDisc(base CalibrationTrial, kind func(float32) Offsets, try func(Offsets) (CalibrationTrial, error)) (CalibrationTrial, error) {
	target := base.GoldDisc
	miss := func(t CalibrationTrial) float64 { return math.Abs(float64(t.Disc - target)) }
	if miss(base) <= 0.01*float64(target) {
		return base, nil
	}
	sign := float32(1)
	if base.Disc > target {
		sign = -1
	}
	best := base
	// probe decodes with offset sign*d and reports whether it is close
	// enough and whether it passed the target.
	probe := func(d float32) (near, passed bool, err error) {
		t, err := try(kind(sign * d))
		if err != nil {
			return false, false, err
		}
		if miss(t) < miss(best) {
			best = t
		}
		return miss(t) <= 0.01*float64(target), (sign > 0) == (t.Disc > target), nil
	}
	// Widen until the target is passed, then halve the bracket.
	lo, hi := float32(0), float32(1)
	for n := 0; ; n++ {
		near, passed, err := probe(hi)
		if err != nil || near {
			return best, err
		}
		if passed {
			break
		}
		if n == maxBisect {
			return best, nil // never passed: the closest there is
		}
		lo, hi = hi, 2*hi
	}
	for range maxBisect {
		mid := (lo + hi) / 2
		near, passed, err := probe(mid)
		if err != nil || near {
			return best, err
		}
		if passed {
			hi = mid
		} else {
			lo = mid
		}
	}
	return best, nil
}

// FormatTrials returns the trials as table rows, sorted by offsets.
func FormatTrials(v decode.Variant, trials []CalibrationTrial) string {
	sorted := append([]CalibrationTrial(nil), trials...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i].Offsets, sorted[j].Offsets
		return a.Disc+a.Gap < b.Disc+b.Gap
	})
	var sb strings.Builder
	for _, t := range sorted {
		fmt.Fprintf(&sb, "  %s disc %+7.3f gap %+7.3f: %4d disc. constituents (gold %d), F1 %.2f, disc. F1 %.2f\n",
			v, t.Offsets.Disc, t.Offsets.Gap, t.Disc, t.GoldDisc, t.F1, t.DiscF1)
	}
	return sb.String()
}
