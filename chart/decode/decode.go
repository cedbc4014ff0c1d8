package decode

import (
	"context"
	"errors"
	"fmt"
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
}

func (o *Options) maxBytes() int64 {
	if o == nil || o.MaxBytes == 0 {
		return DefaultMaxBytes
	}
	return o.MaxBytes
}

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
		return 5*span + blockCells(n)*4 + n1*n1*8 + n1*4 + 2*int64(n)*int64(n)*4
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
	opt := &dec.opt
	if v < Continuous || v > N6 {
		return nil, fmt.Errorf("decode: unknown variant %d", int(v))
	}
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	if need, budget := ChartBytes(v, s.N, s.L), opt.maxBytes(); need > budget {
		return nil, fmt.Errorf("decode %s: %d words need %d MiB of chart, budget %d MiB: %w",
			v, s.N, need>>20, budget>>20, ErrTooLong)
	}
	if s.N == 0 {
		return &Derivation{Variant: v}, nil
	}
	cancel := newCanceller(opt.ctx())
	a := &dec.arena
	a.reset()
	var (
		d   *Derivation
		err error
	)
	switch v {
	case Continuous:
		d, err = decodeContinuous(a, s, cancel)
	case N3:
		d, err = decodeCubic(a, s, cancel)
	case N4:
		d, err = decodeQuartic(a, s, cancel)
	default:
		d, err = decodeFull(a, v, s, cancel)
	}
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w", v, err)
	}
	d.Variant = v
	return d, nil
}

// canceller polls a context cheaply from the chart loops.
type canceller struct{ ctx context.Context }

func newCanceller(ctx context.Context) canceller { return canceller{ctx} }

func (c canceller) err() error {
	if c.ctx == nil {
		return nil
	}
	return c.ctx.Err()
}
