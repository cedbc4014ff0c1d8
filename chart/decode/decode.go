package decode

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// DefaultMaxBytes is the chart memory budget used when Options.MaxBytes is 0.
const DefaultMaxBytes = 1 << 30

// ErrTooLong is wrapped by the error returned for a sentence whose chart
// would exceed the memory budget.
var ErrTooLong = errors.New("sentence too long for the variant's memory budget")

// Options tune a decoding run. The zero value is ready to use.
type Options struct {
	// MaxBytes bounds the chart memory; 0 means DefaultMaxBytes.
	MaxBytes int64
	// Context, when set, cancels a long decoding run (checked once per cell).
	Context context.Context
	// Progress, when set, is told how far a long decoding run is (the n5
	// and n6 variants: minutes for a sentence of a few hundred words): the
	// sentence's number of words, the estimated share of the chart's work
	// done, in (0, 1], and the time the run has taken, each time the share
	// has grown by a percent or more. It is called from the decoding
	// goroutine.
	Progress func(words int, done float64, elapsed time.Duration)
}

func (o *Options) maxBytes() int64 {
	if o == nil || o.MaxBytes == 0 {
		return DefaultMaxBytes
	}
	return o.MaxBytes
}

// Fits reports (wrapping ErrTooLong) a sentence of n words and l labels
// whose span scores (ScoreBytes) or chart for variant v (ChartBytes) would
// exceed the memory budget, each; nil when both fit. Callers check it
// before they build the scores, which Decode cannot refuse in time.
func (o *Options) Fits(v Variant, n, l int) error {
	budget := o.maxBytes()
	if need := ScoreBytes(n, l); need > budget {
		return fmt.Errorf("%d words and %d labels need %d MiB of span scores, budget %d MiB: %w", n, l, need>>20, budget>>20, ErrTooLong)
	}
	if need := ChartBytes(v, n, l); need > budget || need == math.MaxInt64 {
		return fmt.Errorf("decode %s: %d words need %d MiB of chart, budget %d MiB: %w", v, n, need>>20, budget>>20, ErrTooLong)
	}
	return nil
}

// Fits is Options.Fits with the decoder's options.
func (dec *Decoder) Fits(v Variant, n, l int) error { return dec.opt.Fits(v, n, l) }

func (o *Options) ctx() context.Context {
	if o == nil || o.Context == nil {
		return nil
	}
	return o.Context
}

// ChartBytes returns the memory, in bytes, that decoding a sentence of n
// words with l labels allocates for the variant's charts and tables.
func ChartBytes(v Variant, n, l int) int64 {
	n1 := int64(n + 1)
	span := n1 * n1 * 4 // one float32 per span
	switch v {
	case Continuous:
		return 3 * span
	case N3:
		return 6*span + n1*n1*int64(l)*4 + n1*4 + int64(l)*4
	case N4:
		return 5 * span
	default:
		if n > maxExactBlockWords { // about n^4/12 cells: more than int64 counts
			return math.MaxInt64
		}
		return 5*span + blockCells(n)*4 + n1*n1*8 + n1*8 + (triPad+n1)*4 + int64(n)*int64(n)*4
	}
}

// blockCells returns the number of float32 cells of the discontinuous chart:
// one (j-i) x (j-i) block for every span [i,j] of length at least 3.
func blockCells(n int) int64 {
	var total int64
	for s := int64(3); s <= int64(n); s++ {
		total += (int64(n) + 1 - s) * s * s
	}
	return total
}

// maxExactBlockWords is the longest sentence whose discontinuous chart
// ChartBytes counts: its bytes (petabytes) stay far below int64's range;
// a longer one's are given as math.MaxInt64, which no budget holds.
const maxExactBlockWords = 40000

// Decoder decodes sentences one after another and keeps its chart memory
// between them. A Decoder is not safe for concurrent use; use one per
// goroutine.
type Decoder struct {
	opt   Options
	arena arena
}

// NewDecoder returns a decoder with the given options (nil for defaults).
func NewDecoder(opt *Options) *Decoder {
	d := &Decoder{}
	if opt != nil {
		d.opt = *opt
	}
	return d
}

// Decode returns the best derivation of the variant for the scores, using a
// fresh Decoder.
func Decode(v Variant, s *Scores, opt *Options) (*Derivation, error) {
	return NewDecoder(opt).Decode(v, s)
}

// Decode returns the best derivation of the variant for the scores. It
// fails on malformed or non-finite scores, when the chart would exceed the
// memory budget (wrapping ErrTooLong), and when the context is cancelled.
// The returned derivation does not share memory with the decoder.
func (dec *Decoder) Decode(v Variant, s *Scores) (*Derivation, error) {
	if err := checkInput(v, s); err != nil {
		return nil, err
	}
	return dec.run(v, s, nil)
}

// checkInput reports an unknown variant or malformed scores.
func checkInput(v Variant, s *Scores) error {
	if v < Continuous || v > N6 {
		return fmt.Errorf("decode: unknown variant %d", int(v))
	}
	if err := s.Check(); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	return nil
}

// errNoTree reports a constrained chart whose goal no derivation reaches.
var errNoTree = errors.New("no derivation reaches the goal")

// run decodes checked scores under the compiled constraints con (nil for
// none). Under constraints, n3 decodes through the n4 chart: its forgetful
// bottom items do not remember the left block and gap of a discontinuous
// constituent, so they cannot check its yield against the constraints; n4
// has the same search space.
func (dec *Decoder) run(v Variant, s *Scores, con *conTable) (*Derivation, error) {
	chart := v
	if con != nil && v == N3 {
		chart = N4
	}
	if need, budget := ChartBytes(chart, s.N, s.L), dec.opt.maxBytes(); need > budget || need == math.MaxInt64 {
		return nil, fmt.Errorf("decode %s: %d words need %d MiB of chart, budget %d MiB: %w",
			v, s.N, need>>20, budget>>20, ErrTooLong)
	}
	if s.N == 0 {
		return &Derivation{Variant: v}, nil
	}
	cancel := newCanceller(dec.opt.ctx())
	cancel.progress = dec.opt.Progress
	a := &dec.arena
	a.reset()
	var (
		d   *Derivation
		err error
	)
	switch chart {
	case Continuous:
		d, err = decodeContinuous(a, s, con, cancel)
	case N3:
		d, err = decodeCubic(a, s, cancel)
	case N4:
		d, err = decodeQuartic(a, s, con, cancel)
	default:
		d, err = decodeFull(a, chart, s, con, cancel)
	}
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w", v, err)
	}
	d.Variant = v
	return d, nil
}

// goalReached returns errNoTree when the goal's score is -Inf, which only
// constraints can cause.
func goalReached(score float32) error {
	if score == negInf {
		return errNoTree
	}
	return nil
}

// DecodeConstrained returns the best derivation of the variant for the
// scores, using a fresh Decoder, among the trees that satisfy c.
func DecodeConstrained(v Variant, s *Scores, c *Constraints, opt *Options) (*Derivation, error) {
	return NewDecoder(opt).DecodeConstrained(v, s, c)
}

// DecodeConstrained returns the best derivation of the variant among those
// whose tree satisfies c: every required constituent is a node with its
// label, and no node with a label has a forbidden yield. Derivation.Score
// is the tree's score, to which a required constituent adds its label's
// score even when negative (nothing when it is Unscored). With nil or
// empty constraints it is Decode.
//
// Constraints change item weights only: an item whose yield is forbidden
// is null (weight 0), one whose yield is required carries the required
// label, and one whose yield crosses a required yield (overlaps it without
// nesting) weighs -Inf. The items of a derivation are the nodes of a
// binarised tree, pairwise disjoint or nested, so a derivation of finite
// score holds every required yield (the lowest item covering it has both
// antecedents inside it), and every tree satisfying c keeps its score:
// the search stays exact. n3 decodes through the n4 chart (same search
// space), the returned Variant stays n3. The extra cost is O(n^2 c) for
// continuous items, O(c) per discontinuous item n4 scores, and O(s^2) per
// block of extent s and required yield meeting it in the O(n^5)/O(n^6)
// charts.
//
// Errors wrap ErrBadConstraint for malformed constraints and
// ErrUnsatisfiable for constraints no tree of the variant satisfies; when
// the chart finds no tree, the error names a minimal conflicting set of
// requirements, found by decoding subsets of them again (at most
// maxConflictRuns extra runs; forbidden yields never conflict).
func (dec *Decoder) DecodeConstrained(v Variant, s *Scores, c *Constraints) (*Derivation, error) {
	if c.empty() {
		return dec.Decode(v, s)
	}
	if err := checkInput(v, s); err != nil {
		return nil, err
	}
	t, err := c.compile(v, s.N, s.L, nil)
	if err != nil {
		return nil, fmt.Errorf("decode %s: constraints: %w", v, err)
	}
	start := time.Now()
	d, err := dec.run(v, s, t)
	if errors.Is(err, errNoTree) {
		return nil, dec.conflict(v, s, c, time.Since(start))
	}
	return d, err
}

// maxConflictRuns bounds the decoding runs DecodeConstrained spends to
// name a conflicting set of requirements. QuickXplain needs about
// 2k log2(c/k) + 2k runs for a set of k among c requirements: a pair among
// 1,000 takes about 40. The search also stops once it has run for
// conflictTime, or 16 times the failed run when that is longer (a long
// sentence in a slow variant: n5wn takes about 0.1 s at 80 words, and the
// search to name a pair among 77 requirements took 2.3 s).
const (
	maxConflictRuns = 64
	conflictTime    = 500 * time.Millisecond
)

// conflict returns the error for constraints c under which the chart of v
// finds no tree. Forbidden yields only null items, so the requirements
// alone conflict; QuickXplain (Junker 2004) finds a minimal set of them
// that no tree satisfies, decoding subsets of them.
func (dec *Decoder) conflict(v Variant, s *Scores, c *Constraints, failedRun time.Duration) error {
	q := conflictSearch{dec: dec, v: v, s: s, c: c, keep: make([]bool, len(c.Require)),
		deadline: time.Now().Add(max(conflictTime, 16*failedRun))}
	all := make([]int, len(c.Require))
	for x := range all {
		all[x] = x
	}
	set, err := q.explain(nil, false, all)
	switch {
	case errors.Is(err, errConflictRuns) || err == nil && len(set) == 0:
		return fmt.Errorf("decode %s: no %s tree satisfies the %d requirements together (no smaller conflicting set found within the search's budget, %d decoding runs): %w",
			v, v, len(c.Require), q.runs, ErrUnsatisfiable)
	case err != nil:
		return err
	}
	slices.Sort(set)
	names := make([]string, len(set))
	for k, x := range set {
		names[k] = c.describeReq(x)
	}
	return fmt.Errorf("decode %s: no %s tree satisfies the constraints; conflicting requirements: %s: %w",
		v, v, strings.Join(names, ", "), ErrUnsatisfiable)
}

// errConflictRuns stops a conflict search that used maxConflictRuns runs
// or its time.
var errConflictRuns = errors.New("decode: conflict search out of runs")

// conflictSearch decodes subsets of a constraint set's requirements.
type conflictSearch struct {
	dec      *Decoder
	v        Variant
	s        *Scores
	c        *Constraints
	keep     []bool
	runs     int
	deadline time.Time
}

// unsatisfiable reports whether no tree satisfies the requirements set
// alone (one decoding run).
func (q *conflictSearch) unsatisfiable(set []int) (bool, error) {
	if q.runs == maxConflictRuns || q.runs > 0 && time.Now().After(q.deadline) {
		return false, errConflictRuns
	}
	q.runs++
	clear(q.keep)
	for _, x := range set {
		q.keep[x] = true
	}
	t, err := q.c.compile(q.v, q.s.N, q.s.L, q.keep)
	if err == nil {
		_, err = q.dec.run(q.v, q.s, t)
	}
	switch {
	case errors.Is(err, errNoTree):
		return true, nil
	case err == nil:
		return false, nil
	}
	return false, err
}

// explain returns a minimal subset X of cands such that no tree satisfies
// background and X together, given that none satisfies background and
// cands (QuickXplain); grown says whether background gained requirements
// since that was known of it alone, so that it must be decoded again.
func (q *conflictSearch) explain(background []int, grown bool, cands []int) ([]int, error) {
	if grown {
		if none, err := q.unsatisfiable(background); err != nil || none {
			return nil, err
		}
	}
	if len(cands) <= 1 {
		return cands, nil
	}
	half := len(cands) / 2
	first, second := cands[:half], cands[half:]
	x2, err := q.explain(slices.Concat(background, first), true, second)
	if err != nil {
		return nil, err
	}
	x1, err := q.explain(slices.Concat(background, x2), len(x2) > 0, first)
	if err != nil {
		return nil, err
	}
	return slices.Concat(x1, x2), nil
}

// canceller polls a context cheaply from the chart loops, and reports
// progress (Options.Progress) to the loops that say how far they are.
type canceller struct {
	ctx      context.Context
	progress func(words int, done float64, elapsed time.Duration)
}

func newCanceller(ctx context.Context) canceller { return canceller{ctx: ctx} }

func (c canceller) err() error {
	if c.ctx == nil {
		return nil
	}
	return c.ctx.Err()
}
