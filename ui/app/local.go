package app

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/weights"
)

// GPUFunc builds a GPU scorer for the parameters (stored as float16 when
// f16 is set) and says whether its adapter is a software one. Without
// allowSoftware it fails early, with an error wrapping ErrSoftwareAdapter,
// when the adapter is a software one, before compiling anything. ui/browser
// gives one over package webgpu.
type GPUFunc func(p *network.Params, f16, allowSoftware bool) (s scorer.Scorer, software bool, err error)

// ErrSoftwareAdapter is wrapped by a GPUFunc's error when the only adapter
// is a software one and software adapters were not allowed.
var ErrSoftwareAdapter = errors.New("the WebGPU adapter is a software one")

// Local is the Engine that parses in the calling goroutine's thread: the
// network (on the CPU, or WebGPU through GPU) and the chart decoders. In the
// browser it runs inside the Web Worker; on the host it serves tests.
type Local struct {
	// GPU builds the WebGPU scorer; nil means CPU only.
	GPU GPUFunc

	mu     sync.Mutex
	p      *parser.Parser
	scorer scorer.Scorer
	memo   *memo
}

// Load reads the weights and chooses the backend (see chooseBackend).
func (l *Local) Load(ctx context.Context, data []byte, name string, opt LoadOptions) (*Info, error) {
	start := time.Now()
	f, err := weights.Read(data, name)
	if err != nil {
		return nil, err
	}
	models, err := f.Models()
	if err != nil {
		return nil, err
	}
	p, err := parser.New(models[0], f.Meta.Vocab)
	if err != nil {
		return nil, err
	}
	p.Decode.MaxBytes = opt.MaxBytes
	if p.Decode.MaxBytes <= 0 {
		p.Decode.MaxBytes = DefaultMaxBytes
	}
	info := &Info{
		Labels:       f.Meta.Vocab.Labels,
		Params:       models[0].Config().NumParams() * len(models),
		Models:       len(models),
		DType:        f.DType.String(),
		DevF1:        f.Meta.DevF1,
		DevDiscF1:    f.Meta.DevDiscF1,
		TrainingData: f.Meta.TrainingData,
	}
	if !f.Meta.Created.IsZero() {
		info.Created = f.Meta.Created.UTC().Format("2006-01-02")
	}
	sc, err := l.chooseBackend(ctx, p, models, f.DType == weights.Float16, opt.Backend, info)
	if err != nil {
		return nil, err
	}
	mm := &memo{s: sc}
	p.Scorer = mm
	info.LoadNs = int64(time.Since(start))

	l.mu.Lock()
	defer l.mu.Unlock()
	l.closeLocked()
	l.p, l.scorer, l.memo = p, sc, mm
	return info, nil
}

// Parse parses one sentence; ctx cancels the decoder (checked once per
// chart cell).
func (l *Local) Parse(ctx context.Context, req Request) (*Parse, error) {
	l.mu.Lock()
	p, mm := l.p, l.memo
	l.mu.Unlock()
	if p == nil {
		return nil, ErrNoModel
	}
	v, err := decode.ParseVariant(req.Variant)
	if err != nil {
		return nil, err
	}
	if len(req.Words) == 0 {
		return nil, fmt.Errorf("no words to parse")
	}
	pc := *p // a copy with this call's context
	pc.Decode.Context = ctx
	if req.constrained() {
		return parseConstrained(ctx, &pc, mm, v, req)
	}
	hits := mm.Hits()
	r, err := pc.ParseWords(req.Words, v)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	out := &Parse{
		Variant:  v.String(),
		Words:    r.Words,
		Tags:     r.Tags,
		Tree:     r.Tree,
		Items:    r.Derivation.Items,
		Score:    r.Derivation.Score,
		ScoreNs:  int64(r.Timing.Score),
		DecodeNs: int64(r.Timing.Decode),
		Reused:   mm.Hits() > hits,
	}
	if req.Scores {
		if out.Scores, err = spanScores(&pc, req.Words); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Close releases the scorer.
func (l *Local) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closeLocked()
}

func (l *Local) closeLocked() {
	if l.scorer != nil {
		_ = l.scorer.Close()
	}
	l.p, l.scorer, l.memo = nil, nil, nil
}
