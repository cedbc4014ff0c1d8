//go:build js

// Command browsercheck is the browser half of TestEquivalenceBrowser: in a
// page with WebGPU, it scores random sentences with a small random model on
// the WebGPU scorer (float32 and float16 weights; an ensemble; products
// and loops split as on a hardware adapter) and on the CPU reference, checks
// the self-check, and posts a report to /result: one line per check,
// "ok ..." or "FAIL ...", then "DONE". Each webgpu.New compiles the kernels
// anew (seconds on SwiftShader), so the page builds as few as it can.
package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"syscall/js"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/webgpu"
)

func main() {
	var out strings.Builder
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(&out, "FAIL panic: %v\n", r)
		}
		out.WriteString("DONE\n")
		js.Global().Call("fetch", "/result", map[string]any{"method": "POST", "body": out.String()})
		select {}
	}()
	check(&out)
}

// check runs the comparisons (it blocks on WebGPU promises: main's
// goroutine, never a js.FuncOf callback).
func check(out *strings.Builder) {
	c := network.Config{
		WordDim: 12, CharDim: 7, CharHidden: 9, MaxChars: 6,
		LSTM1Hidden: 13, LSTM2Hidden: 11, LabelMLP: 10, SpanMLP: 17,
		Labels: 5, Tags: 4, WordVocab: 40, CharVocab: 23, LeakySlope: 0.1,
	}
	rng := rand.New(rand.NewPCG(3, 7))
	m, err := randomModel(c, 3, 0.4, rng)
	if err != nil {
		fmt.Fprintf(out, "FAIL %v\n", err)
		return
	}
	var batch []network.Input
	for _, n := range []int{3, 0, 1, 7, 12, 2, 40, 5, 33, 9} {
		in := network.Input{WordIDs: make([]int, n), CharIDs: make([][]int, n)}
		for w := range n {
			in.WordIDs[w] = rng.IntN(c.WordVocab)
			in.CharIDs[w] = []int{rng.IntN(c.CharVocab), rng.IntN(c.CharVocab), rng.IntN(c.CharVocab)}
		}
		batch = append(batch, in)
	}
	// The float32 scorer stays open for the self-check and Select below:
	// each webgpu.New costs the page about 11 s of pipeline compilation on
	// SwiftShader (two cores).
	var f32 *webgpu.Scorer
	defer func() {
		if f32 != nil {
			f32.Close()
		}
	}()
	for _, w := range []webgpu.Weights{webgpu.WeightsF32, webgpu.WeightsF16} {
		ref := m
		tol := 1e-3
		if w == webgpu.WeightsF16 {
			ref, tol = &network.Model{Params: webgpu.RoundFloat16(m.Params)}, 1e-2
		}
		s, err := webgpu.New(m.Params, webgpu.Options{Weights: w})
		if err != nil {
			fmt.Fprintf(out, "FAIL %v: New: %v\n", w, err)
			continue
		}
		for _, sub := range [][]network.Input{batch, batch[3:4]} {
			got, err := s.Score(sub)
			if err != nil {
				fmt.Fprintf(out, "FAIL %v: Score: %v\n", w, err)
				continue
			}
			want, _ := ref.ForwardBatch(sub)
			d := maxDiff(got, want)
			verdict := "ok"
			if !(d <= tol) {
				verdict = "FAIL"
			}
			fmt.Fprintf(out, "%s %s, %d sentences: max abs diff %.3g (tolerance %g)\n", verdict, s.Backend(), len(sub), d, tol)
		}
		if w == webgpu.WeightsF32 {
			f32 = s
			continue
		}
		s.Close()
	}
	// An ensemble of two on one device (NewEnsemble, as the app scores
	// one), its self-check on: the mean of the CPU references.
	m2, err := randomModel(c, 4, 0.4, rng)
	if err != nil {
		fmt.Fprintf(out, "FAIL %v\n", err)
		return
	}
	if s, err := webgpu.NewEnsemble([]*network.Params{m.Params, m2.Params}, webgpu.Options{MaxWords: 40}); err != nil {
		fmt.Fprintf(out, "FAIL ensemble on one device: %v\n", err)
	} else {
		got, err := s.Score(batch)
		want, werr := scorer.MeanCPU([]*network.Model{m, m2}).Score(batch)
		verdict, d := "ok", 0.0
		if err != nil || werr != nil {
			verdict = fmt.Sprintf("FAIL (%v, %v)", err, werr)
		} else if d = maxDiff(got, want); !(d <= 1e-3) {
			verdict = "FAIL"
		}
		fmt.Fprintf(out, "%s ensemble on one device: %s, %d sentences: max abs diff %.3g (tolerance 0.001); %s\n", verdict, s.Backend(), len(batch), d, s.SelfCheck())
		s.Close()
	}
	// The same with wider sentence LSTMs (inner dimensions 144 and 134)
	// and the Linear products split over their inner dimension, as a
	// hardware adapter's plan splits them (SwiftShader is a software one):
	// matmul.wgsl reduce compiled by the browser's WGSL compiler and run.
	wide := c
	wide.LSTM1Hidden, wide.LSTM2Hidden = 72, 67
	var ws []*network.Model
	for seed := range uint64(2) {
		w, err := randomModel(wide, 5+seed, 0.2, rng)
		if err != nil {
			fmt.Fprintf(out, "FAIL %v\n", err)
			return
		}
		ws = append(ws, w)
	}
	// And the sentence LSTM loops with each unit's sum split over
	// invocations (lstm_loop.wgsl split), where the device has workgroups
	// of 1024 invocations: both splits on one scorer, as a hardware
	// adapter's plan has them.
	const what = "products split over their inner dimension and LSTM loops' unit sums split"
	if s, err := webgpu.NewEnsemble([]*network.Params{ws[0].Params, ws[1].Params}, webgpu.Options{MaxWords: 40, TestSplitInner: true, TestSplitLoop: true}); err != nil {
		fmt.Fprintf(out, "FAIL %s: %v\n", what, err)
	} else {
		for _, sub := range [][]network.Input{batch, batch[3:4]} {
			got, err := s.Score(sub)
			want, werr := scorer.MeanCPU(ws).Score(sub)
			verdict, d := "ok", 0.0
			if err != nil || werr != nil {
				verdict = fmt.Sprintf("FAIL (%v, %v)", err, werr)
			} else if d = maxDiff(got, want); !(d <= 1e-3) {
				verdict = "FAIL"
			}
			fmt.Fprintf(out, "%s %s: %s, workgroups of %d, %d sentences: max abs diff %.3g (tolerance 0.001)\n", verdict, what, s.Backend(), s.Adapter().Workgroup, len(sub), d)
		}
		s.Close()
	}
	// The self-check: the correct kernels are accepted (the float32
	// scorer's, run by webgpu.New), a deliberately broken one (weight reads
	// scaled in lstm.wgsl or lstm_loop.wgsl) is refused with ErrSelfCheck.
	if f32 == nil {
		fmt.Fprintf(out, "FAIL selfcheck accepts: no float32 scorer\n")
	} else {
		c := f32.SelfCheck()
		verdict := "ok"
		if c.Skipped || c.Sentences != 9 || !(c.MaxDiff <= webgpu.SelfCheckTolerance/10) {
			verdict = "FAIL"
		}
		fmt.Fprintf(out, "%s selfcheck accepts: %s: %s\n", verdict, f32.Backend(), c)
	}
	for _, broken := range []string{"lstm.wgsl", "lstm_loop.wgsl"} {
		s, err := webgpu.New(m.Params, webgpu.Options{MaxWords: 40, TestPerturb: broken})
		switch {
		case err == nil:
			fmt.Fprintf(out, "FAIL selfcheck refuses %s: accepted (%s)\n", broken, s.SelfCheck())
			s.Close()
		case errors.Is(err, webgpu.ErrSelfCheck) && errors.Is(err, scorer.ErrUnavailable):
			fmt.Fprintf(out, "ok selfcheck refuses %s: %v\n", broken, err)
		default:
			fmt.Fprintf(out, "FAIL selfcheck refuses %s: other error %v\n", broken, err)
		}
	}
	// Select keeps the scorer it is given (the float32 one, built with the
	// default options and checked above) and closes it.
	var log []string
	sel := scorer.Select(true, m, func() (scorer.Scorer, error) {
		if f32 == nil {
			return nil, errors.New("no float32 scorer")
		}
		s := f32
		f32 = nil
		return s, nil
	}, func(f string, a ...any) { log = append(log, fmt.Sprintf(f, a...)) })
	defer sel.Close()
	if strings.HasPrefix(sel.Backend(), "webgpu") {
		fmt.Fprintf(out, "ok select: %s\n", sel.Backend())
	} else {
		fmt.Fprintf(out, "FAIL select: %s %q\n", sel.Backend(), log)
	}
}

// randomModel returns a model of c whose every parameter is drawn from
// [-scale, scale] with rng (network.New zeroes the biaffines).
func randomModel(c network.Config, seed uint64, scale float64, rng *rand.Rand) (*network.Model, error) {
	m, err := network.New(c, seed)
	if err != nil {
		return nil, err
	}
	for _, t := range m.Params.Tensors() {
		for i := range t.Data {
			t.Data[i] = float32(scale * (2*rng.Float64() - 1))
		}
	}
	return m, nil
}

// maxDiff is the largest absolute difference of scores and tag logits
// between got and want (scorer.Compare).
func maxDiff(got, want []scorer.Result) float64 {
	var d scorer.Diff
	for i := range want {
		d = d.Max(scorer.Compare(got[i], want[i]))
	}
	return math.Max(d.Scores, d.Tags)
}
