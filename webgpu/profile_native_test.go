//go:build !js && cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64)))

package webgpu

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/cogentcore/webgpu/wgpu"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
)

// BenchmarkProfile_TestSet shows where a device's time goes when it
// scores one sentence, 64 sentences and the Alpino test set (714
// sentences, one batch) with the shipped model's first member, float32, on
// the hardware schedule (lavapipe runs it as a hardware adapter), with the
// defaults and variants of the plan and kernels: for each, the scores'
// largest difference from the CPU reference, the best of three Score calls
// (twenty for one sentence) with its phases, then one more run of the same
// plan with a timestamp written between every two dispatches (each
// dispatch in a compute pass of its own), summed per kind of dispatch.
// Timestamps are read as nanoseconds (Vulkan's timestampPeriod is 1 on
// NVIDIA and lavapipe). Its output is in docs/gpu.md. Run it with
//
//	go test ./webgpu -run XXX -bench Profile -benchtime 1x
func BenchmarkProfile_TestSet(b *testing.B) {
	f, batch := testSet(b)
	models, err := f.Models()
	if err != nil {
		b.Fatal(err)
	}
	p := models[0].Params
	var one []network.Input // the first sentence of 20 words
	for _, in := range batch {
		if in.Len() == 20 {
			one = []network.Input{in}
			break
		}
	}
	// indexed is o with the matmul kernel of before 2026-11-27, whose
	// accumulators were a private array indexed in loops (and which cannot
	// split a product over its inner dimension).
	indexed := func(o Options) Options {
		o.noSplitInner = true
		src, err := os.ReadFile(filepath.Join("testdata", "matmul_indexed.wgsl"))
		if err != nil {
			b.Fatal(err)
		}
		o.kernelBodies = map[string]string{"matmul.wgsl": string(src)}
		return o
	}
	steps := Options{loopSentences: 1, charSteps: true}
	// interleaved: the LSTM loops read lstm.wgsl's interleaved W_hhᵀ four
	// gates a load (Options.loopInterleaved), against the gate-major copy.
	interleaved := Options{loopInterleaved: true}
	f16, f16Interleaved := Options{Weights: WeightsF16}, Options{Weights: WeightsF16, loopInterleaved: true}
	variants := []struct {
		name  string
		o     Options
		batch []network.Input
	}{
		{"one sentence of 20 words", Options{}, one},
		{"one sentence of 20 words, products whole (not split over their inner dimension)", Options{noSplitInner: true}, one},
		{"one sentence of 20 words, LSTM loops' unit sums whole (not split over invocations)", Options{noSplitLoop: true}, one},
		{"one sentence of 20 words, LSTM loops' unit sums in at most 2 slices (session 16)", Options{loopSlicesMost: 2}, one},
		{"one sentence of 20 words, char loop's unit sums whole (session 16)", Options{noSplitChars: true}, one},
		{"one sentence of 20 words, char BiLSTM a dispatch per step", Options{charSteps: true}, one},
		{"one sentence of 20 words, LSTM loops interleaved", interleaved, one},
		{"one sentence of 20 words, the kinds' biaffines in turn", Options{kindsInTurn: true}, one},
		{"one sentence of 20 words, f16 weights", f16, one},
		{"one sentence of 20 words, f16 weights, LSTM loops interleaved", f16Interleaved, one},
		{"64 sentences", Options{}, batch[:64]},
		{"64 sentences, LSTM loops interleaved", interleaved, batch[:64]},
		{"64 sentences, products whole", Options{noSplitInner: true}, batch[:64]},
		{"64 sentences, LSTM loops' unit sums whole", Options{noSplitLoop: true}, batch[:64]},
		{"64 sentences, LSTM loops' unit sums in at most 2 slices", Options{loopSlicesMost: 2}, batch[:64]},
		{"64 sentences, char loop's unit sums whole", Options{noSplitChars: true}, batch[:64]},
		{"64 sentences, per-step LSTM kernel", steps, batch[:64]},
		{"test set", Options{}, batch},
		{"test set, char BiLSTM a dispatch per step", Options{charSteps: true}, batch},
		{"test set, LSTM loops interleaved", interleaved, batch},
		{"test set, chunks of 2048 tokens", Options{ChunkTokens: 2048}, batch},
		{"test set, per-step LSTM kernel", steps, batch},
		{"test set, matmul with indexed accumulators", indexed(Options{}), batch},
	}
	// The CPU reference of each batch and weight storage: for float16
	// weights the model with its parameters rounded to float16, as the
	// self-check compares (the rounding alone moves the shipped model's
	// scores by about 0.07).
	type refKey struct {
		sentences int
		w         Weights
	}
	refs := map[refKey][]scorer.Result{}
	for _, v := range variants {
		b.Run(strings.ReplaceAll(v.name, " ", "_"), func(b *testing.B) {
			o := v.o
			o.timestamps, o.asHardware = true, true
			s := openScorer(b, p, o)
			key := refKey{len(v.batch), o.Weights}
			if refs[key] == nil {
				m := models[0]
				if o.Weights == WeightsF16 {
					m = &network.Model{Params: RoundFloat16(p)}
				}
				ref, err := scorer.NewCPU(m).Score(v.batch)
				if err != nil {
					b.Fatal(err)
				}
				refs[key] = ref
			}
			for b.Loop() {
				profileOnce(b, s, v.name, v.batch, refs[key])
			}
		})
	}
}

// BenchmarkProfile_Ensemble times the shipped ensemble's two models on one
// 20-word sentence, 64 sentences and the Alpino test set: each model on
// its own device, one after the other, both at once, and both at once
// averaged on the CPU (scorer.Mean, what the app did before session 11);
// and the two on one device, averaged there (NewEnsemble, what the app
// does now), with its phases, and the same with the models' loops in turn
// rather than in one dispatch (Options.modelsInTurn), with no product
// split over its inner dimension (Options.noSplitInner), and with the
// loops' unit sums whole (Options.noSplitLoop) or in at most 2 slices
// (Options.loopSlicesMost, session 16's split). One device runs the models' dispatches back
// to back; two devices may overlap them where the GPU runs two devices'
// work at once, which matters most for one sentence.
func BenchmarkProfile_Ensemble(b *testing.B) {
	f, batch := testSet(b)
	models, err := f.Models()
	if err != nil {
		b.Fatal(err)
	}
	var one []network.Input // the first sentence of 20 words
	for _, in := range batch {
		if in.Len() == 20 {
			one = []network.Input{in}
			break
		}
	}
	o := Options{asHardware: true}
	s0, s1 := openScorer(b, models[0].Params, o), openScorer(b, models[1].Params, o)
	ens := openEnsemble(b, []*network.Params{models[0].Params, models[1].Params}, o)
	inTurn := o
	inTurn.modelsInTurn = true
	ensInTurn := openEnsemble(b, []*network.Params{models[0].Params, models[1].Params}, inTurn)
	whole := o
	whole.noSplitInner = true
	ensWhole := openEnsemble(b, []*network.Params{models[0].Params, models[1].Params}, whole)
	unitsWhole := o
	unitsWhole.noSplitLoop = true
	ensUnitsWhole := openEnsemble(b, []*network.Params{models[0].Params, models[1].Params}, unitsWhole)
	twoSlices := o
	twoSlices.loopSlicesMost = 2
	ensTwoSlices := openEnsemble(b, []*network.Params{models[0].Params, models[1].Params}, twoSlices)
	mean := scorer.Mean(s0, s1)
	best := func(rounds int, run func() error) time.Duration {
		d := time.Duration(1 << 62)
		for range rounds {
			start := time.Now()
			if err := run(); err != nil {
				b.Fatal(err)
			}
			d = min(d, time.Since(start))
		}
		return d
	}
	score := func(s scorer.Scorer, in []network.Input) func() error {
		return func() error { _, err := s.Score(in); return err }
	}
	type size struct {
		name   string
		in     []network.Input
		rounds int
	}
	sizes := []size{{"one 20-word sentence", one, 20}, {"64 sentences", batch[:64], 5}}
	if s0.software {
		// 3 rounds of 6 ways over 714 sentences: past go test's 10
		// minutes on lavapipe.
		fmt.Printf("\n## ensemble of 2 on %s: the test set left out, a software adapter (the profile is for GPUs)\n", s0.Backend())
	} else {
		sizes = append(sizes, size{"test set", batch, 3})
	}
	for b.Loop() {
		for _, v := range sizes {
			for _, s := range []scorer.Scorer{s0, s1, ens, ensInTurn, ensWhole, ensUnitsWhole, ensTwoSlices} { // warm up: buffers grown
				if err := score(s, v.in)(); err != nil {
					b.Fatal(err)
				}
			}
			seq := best(v.rounds, func() error {
				if err := score(s0, v.in)(); err != nil {
					return err
				}
				return score(s1, v.in)()
			})
			both := best(v.rounds, func() error {
				w0, w1 := s0.Start(v.in), s1.Start(v.in)
				_, err0 := w0()
				_, err1 := w1()
				return errors.Join(err0, err1)
			})
			averaged := best(v.rounds, score(mean, v.in))
			modelsInTurn := best(v.rounds, score(ensInTurn, v.in))
			productsWhole := best(v.rounds, score(ensWhole, v.in))
			loopsUnitsWhole := best(v.rounds, score(ensUnitsWhole, v.in))
			loopsTwoSlices := best(v.rounds, score(ensTwoSlices, v.in))
			var phases Phases
			oneDevice := time.Duration(1 << 62)
			for range v.rounds {
				ens.ResetPhases()
				if d := best(1, score(ens, v.in)); d < oneDevice {
					oneDevice, phases = d, ens.Phases()
				}
			}
			fmt.Printf("\n## ensemble of 2 on %s, %s (best of %d): a device per model, one after the other %.2f ms, at once %.2f ms, at once and averaged on the CPU %.2f ms; one device, averaged there %.2f ms (%v); the same with the loops model after model %.2f ms, with no product split over its inner dimension %.2f ms, with the loops' unit sums whole %.2f ms, in at most 2 slices %.2f ms\n",
				s0.Backend(), v.name, v.rounds, ms(seq), ms(both), ms(averaged), ms(oneDevice), phases, ms(modelsInTurn), ms(productsWhole), ms(loopsUnitsWhole), ms(loopsTwoSlices))
		}
	}
}

// profileOnce scores batch three times and once more with timestamps, and
// prints what it measured.
func profileOnce(b *testing.B, s *Scorer, name string, batch []network.Input, ref []scorer.Result) {
	if _, err := s.Score(batch); err != nil { // warm up: buffers grown
		b.Fatal(err)
	}
	best := time.Duration(1 << 62)
	var phases Phases
	var got []scorer.Result
	for range 3 + 17/len(batch) {
		s.d.phases = Phases{}
		start := time.Now()
		var err error
		if got, err = s.Score(batch); err != nil {
			b.Fatal(err)
		}
		if d := time.Since(start); d < best {
			best, phases = d, s.d.phases
		}
	}
	chunks := planChunks(batch, s.lay)
	jobs := chunkJobs(s.lay, s.wms, chunks, s.limits())
	n := 0
	for _, jb := range jobs {
		n += len(jb.ds)
	}
	fmt.Printf("\n## %s on %s: %d chunks, %d dispatches, chunk tokens %d, workgroups of up to %d invocations\n", name, s.Backend(), len(chunks), n, s.lay.tokCap, s.Adapter().Workgroup)
	d := compare(b, got, ref)
	fmt.Printf("against the CPU reference: max abs diff scores %.3g, tags %.3g; %d of %d trees differ\n", d.scores, d.tags, d.trees, len(batch))
	if d.scores > 1e-3 || d.trees > 0 {
		b.Errorf("%s: differs from the CPU reference", name)
	}
	sum := phases.Plan + phases.Upload + phases.Record + phases.Alloc + phases.Wait + phases.Copy + phases.Unpack
	fmt.Printf("Score, best of %d: %.1f ms (%v; outside the phases %.1f ms)\n", 3+17/len(batch), ms(best), phases, ms(best-sum))
	if !s.d.timestamps {
		fmt.Printf("no timestamp-query feature on this adapter: no profile\n")
		return
	}
	ticks, err := s.timestampRun(jobs)
	if err != nil {
		b.Fatal(err)
	}
	type kind struct {
		name  string
		count int
		ns    float64
	}
	byKind := map[string]*kind{}
	step := regexp.MustCompile(` step \d+$`)
	total, k := 0.0, 0
	for _, jb := range jobs {
		k++ // the timestamp after the table copies
		for _, d := range jb.ds {
			what := step.ReplaceAllString(d.what, " steps")
			what = strings.NewReplacer("cont.", "", "disc.", "", "gap.", "").Replace(what)
			kd := byKind[what]
			if kd == nil {
				kd = &kind{name: what}
				byKind[what] = kd
			}
			dt := float64(ticks[k] - ticks[k-1])
			kd.count++
			kd.ns += dt
			total += dt
			k++
		}
		k++ // the result copy
	}
	kinds := make([]*kind, 0, len(byKind))
	for _, kd := range byKind {
		kinds = append(kinds, kd)
	}
	slices.SortFunc(kinds, func(a, b *kind) int { return int(b.ns - a.ns) })
	span := float64(ticks[len(ticks)-1] - ticks[0])
	fmt.Printf("timestamped run: first to last timestamp %.1f ms, dispatches %.1f ms, copies %.1f ms\n", span/1e6, total/1e6, (span-total)/1e6)
	fmt.Printf("| dispatch | count | ms | µs each | share |\n|---|---|---|---|---|\n")
	for _, kd := range kinds {
		fmt.Printf("| %s | %d | %.2f | %.1f | %.0f%% |\n", kd.name, kd.count, kd.ns/1e6, kd.ns/1e3/float64(kd.count), 100*kd.ns/total)
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// timestampRun runs jobs as one group (as runGroup on a hardware adapter)
// with every dispatch in a compute pass of its own, writing a timestamp
// before each job's dispatches, after each dispatch and after each job's
// result copy, and returns the timestamps in that order.
func (s *Scorer) timestampRun(jobs []*job) ([]uint64, error) {
	groups := schedule(jobs, 0, s.stagingCap, uploadLimit)
	if len(groups) != 1 {
		return nil, fmt.Errorf("%d groups: profile one", len(groups))
	}
	g := groups[0]
	count := 0
	for _, jb := range g.jobs {
		count += len(jb.ds) + 2
	}
	qs, err := s.d.dev.CreateQuerySet(&wgpu.QuerySetDescriptor{Type: wgpu.QueryTypeTimestamp, Count: uint32(count)})
	if err != nil {
		return nil, err
	}
	defer qs.Release()
	size := uint64(8*count+255) &^ 255
	resolve, err := s.d.dev.CreateBuffer(&wgpu.BufferDescriptor{Size: size, Usage: wgpu.BufferUsageQueryResolve | wgpu.BufferUsageCopySrc})
	if err != nil {
		return nil, err
	}
	defer resolve.Release()
	read, err := s.d.dev.CreateBuffer(&wgpu.BufferDescriptor{Size: size, Usage: wgpu.BufferUsageMapRead | wgpu.BufferUsageCopyDst})
	if err != nil {
		return nil, err
	}
	defer read.Release()
	if err := s.prepare(g); err != nil {
		return nil, err
	}
	enc, err := s.newEncoder()
	if err != nil {
		return nil, err
	}
	q := uint32(0)
	stamp := func() error {
		err := enc.WriteTimestamp(qs, q)
		q++
		return err
	}
	for _, jb := range g.jobs {
		if err := s.copyTables(enc, jb); err != nil {
			return nil, err
		}
		if err := stamp(); err != nil {
			return nil, err
		}
		for i := range jb.ds {
			if err := s.pass(enc, jb.ds, i, i+1); err != nil {
				return nil, err
			}
			if err := stamp(); err != nil {
				return nil, err
			}
		}
		if err := enc.CopyBufferToBuffer(s.arena, uint64(4*s.lay.out), s.staging, uint64(4*jb.outAt), uint64(4*jb.outLen)); err != nil {
			return nil, err
		}
		if err := stamp(); err != nil {
			return nil, err
		}
	}
	if err := enc.ResolveQuerySet(qs, 0, uint32(count), resolve, 0); err != nil {
		return nil, err
	}
	if err := enc.CopyBufferToBuffer(resolve, 0, read, 0, size); err != nil {
		return nil, err
	}
	if err := s.submit(enc); err != nil {
		return nil, err
	}
	ticks := make([]uint64, size/8)
	if err := s.d.readInto(read, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(ticks))), size)); err != nil {
		return nil, err
	}
	return ticks[:count], nil
}

// BenchmarkChunks_Ensemble times the shipped ensemble on the Alpino test set
// (one batch) in chunks of 4096 to 32768 tokens (4096 again last, to see
// the run's drift), the device asking for bindings of up to 2 GiB: fewer
// chunks mean fewer LSTM loops in sequence (each as long as its chunk's
// longest sentence), and from twice the test set's 15,445 tokens on, both
// models' loops share their dispatches. Its output is in docs/gpu.md.
func BenchmarkChunks_Ensemble(b *testing.B) {
	f, batch := testSet(b)
	models, err := f.Models()
	if err != nil {
		b.Fatal(err)
	}
	ps := []*network.Params{models[0].Params, models[1].Params}
	if info, err := ProbeAdapter(Options{}); err != nil || info.Software {
		b.Skipf("no hardware adapter (%v, %v): the benchmark is for GPUs", info, err)
	}
	var ref []scorer.Result
	for b.Loop() {
		for _, tokens := range []int{4096, 8192, 16384, 32768, 4096} {
			o := Options{asHardware: true, ChunkTokens: tokens, storageWanted: 2 << 30, SkipSelfCheck: true}
			s, err := NewEnsemble(ps, o)
			if err != nil {
				fmt.Printf("chunks of %d tokens: %v\n", tokens, err)
				continue
			}
			if ref == nil {
				if ref, err = scorer.MeanCPU(models).Score(batch); err != nil {
					b.Fatal(err)
				}
			}
			best, phases := time.Duration(1<<62), Phases{}
			var times []time.Duration
			for round := range 10 { // the first grows the buffers
				s.ResetPhases()
				start := time.Now()
				got, err := s.Score(batch)
				if err != nil {
					b.Fatal(err)
				}
				if d := time.Since(start); round > 0 {
					times = append(times, d)
					if d < best {
						best, phases = d, s.Phases()
					}
				}
				if round == 0 {
					if d := compare(b, got, ref); d.scores > 1e-3 || d.trees > 0 {
						b.Errorf("chunks of %d tokens: scores differ from the CPU reference by %.3g, %d trees", tokens, d.scores, d.trees)
					}
				}
			}
			slices.Sort(times)
			fmt.Printf("ensemble of 2 on %s, test set in chunks of %d tokens asked (%d held, arena %d MiB): %d chunks, median of %d %.1f ms, best %.1f ms (%v)\n",
				s.Backend(), tokens, s.lay.tokCap, 4*s.lay.arena>>20, len(planChunks(batch, s.lay)), len(times), ms(times[len(times)/2]), ms(best), phases)
			s.Close()
		}
	}
}
