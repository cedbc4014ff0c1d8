//go:build js || (cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64))))

package webgpu

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/weights"
)

// testTreebank is the Alpino test set (714 sentences, 14,017 words, at most
// 61 words).
const testTreebank = "../../shared/data/alpino-cdb/test.punctmoved.discbracket"

// What the design promises for the Alpino test set in one batch on a
// hardware adapter with the shipped model (no SubmitWork bound): the chunks
// the buffers force, and per batch one write of the upload buffer, one
// submission, one buffer map (the read-back of every chunk's results and
// nothing else: 3 kinds × labels × Σn(n+1)/2 scores, the packed upper
// triangles, and tags × tokens logits, 59 MiB with the shipped model's 28
// labels) and one dispatch per kernel launch: per chunk fixedDispatches,
// one for the character BiLSTM and one per sentence BiLSTM layer (the loop
// kernel's two entries), chunkDispatches in all; with the shipped model's
// sizes a chunk of at most 4096 tokens adds a reduction after its tagger,
// split in two over its inner dimension (576: 4096 rows make 64 tiles of
// the tagger's 40 columns; planner.innerSlices), which the small twin's is
// too short for and a chunk of DefaultChunkTokens (256 tiles) does not
// need.
//
// With DefaultChunkTokens (16384) the test set is one chunk; in chunks of
// smallChunkTokens (4096, the default before session 19, and what a
// 128 MiB binding holds of the small twin, so that lavapipe runs it) it
// is smallChunks chunks.
const (
	chunkDispatches  = 23
	testSetChunks    = 1
	smallChunkTokens = 4096
	smallChunks      = 5
	testSetTriangles = 183471        // Σn(n+1)/2 = (Σn² 352925 + Σn 14017)/2: the spans x <= y, read back packed
	testSetTokens    = 14017 + 2*714 // words, BOS and EOS
)

// testSet returns the shipped model's file and the Alpino test set encoded
// with its vocabulary, or skips the test when either is missing.
func testSet(t testing.TB) (*weights.File, []network.Input) {
	t.Helper()
	f, err := weights.ReadFile(defaultModel)
	if os.IsNotExist(err) {
		t.Skipf("%s not present", defaultModel)
	}
	if err != nil {
		t.Fatal(err)
	}
	trees, err := treebank.ReadFile(testTreebank)
	if os.IsNotExist(err) {
		t.Skipf("%s not present", testTreebank)
	}
	if err != nil {
		t.Fatal(err)
	}
	batch := make([]network.Input, len(trees))
	for i, tr := range trees {
		batch[i] = f.Meta.Vocab.Encode(tr.Words())
	}
	return f, batch
}

// planCounts is the schedule of a batch: chunks, groups and what they
// cost in device calls.
type planCounts struct {
	chunks, submissions, maps, writes, dispatches, outFloats int
}

// planBatch plans batch for the model p with o (after its defaults for a
// software or hardware adapter) without a device, as Score does; with more
// parameters, for the ensemble of them on one device.
func planBatch(t *testing.T, p *network.Params, o Options, software bool, batch []network.Input, more ...*network.Params) planCounts {
	t.Helper()
	ps := append([]*network.Params{p}, more...)
	o = o.withDefaults(software)
	l, err := newEnsembleLayout(p.Config(), o, len(ps))
	if err != nil {
		t.Fatal(err)
	}
	wms, err := mapMembers(ps, weightBudget(o))
	if err != nil {
		t.Fatal(err)
	}
	chunks := planChunks(batch, l)
	var pc planCounts
	pc.chunks = len(chunks)
	for _, g := range schedule(chunkJobs(l, wms, chunks, planLimitsFor(o, software)), o.SubmitWork, stagingLimit, uploadLimit) {
		pc.submissions += g.submissions()
		pc.maps += g.submissions()
		pc.writes++
		pc.dispatches += g.dispatches()
		pc.outFloats += g.outLen
	}
	return pc
}

// smallTwin returns a random model with the vocabularies, labels, tags and
// character limit of c but small layers: its chunks, dispatches and
// results' sizes are those of c as long as c's buffers are not shrunk to
// the storage limit (checked by the caller), and lavapipe runs it fast.
func smallTwin(t *testing.T, c network.Config) *network.Model {
	t.Helper()
	c.WordDim, c.CharDim, c.CharHidden, c.LSTM1Hidden, c.LSTM2Hidden, c.LabelMLP, c.SpanMLP = 12, 7, 9, 13, 11, 10, 17
	return randomModel(t, c, 3)
}

// TestHardwareSchedule holds the submission structure on a hardware
// adapter to what the design promises, on the Alpino test set as one batch
// encoded with the shipped model's vocabulary:
//
//   - planned for the shipped model on a native hardware device (no
//     device needed; bindings of largeStorageLimit): testSetChunks
//     chunk, one upload, one submission, one map, chunkDispatches
//     dispatches, and exactly the results read back; in chunks of
//     smallChunkTokens, smallChunks chunks and still one upload,
//     submission and map; for the shipped ensemble on one device
//     (NewEnsemble), the same but every model's dispatches;
//   - run on this machine's adapter as a hardware one (Options.asHardware,
//     lavapipe included) with a small twin of the shipped model (same
//     vocabularies, labels and tags: the same chunks and read-back; small
//     layers: fast) in chunks of smallChunkTokens, counting the device's
//     calls: the same numbers, and the scores of the CPU reference. On
//     lavapipe that one submission runs for 5 to 10 s: a blocking native
//     Device.Poll gave up after 5 s and lavapipe crashed (see
//     device.wait).
//
// The software schedule of the same batch is logged for comparison.
func TestHardwareSchedule(t *testing.T) {
	f, batch := testSet(t)
	models, err := f.Models()
	if err != nil {
		t.Fatal(err)
	}
	shipped := models[0].Params
	c := shipped.Config()
	outFloats := 3*c.Labels*testSetTriangles + c.Tags*testSetTokens
	// A native hardware device binds up to largeStorageLimit where its
	// adapter allows (NVIDIA's do); with WebGPU's default 128 MiB a larger
	// model's chunks are halved (logged below).
	native := Options{bindingLimit: largeStorageLimit}
	small := Options{bindingLimit: largeStorageLimit, ChunkTokens: smallChunkTokens}
	want := planCounts{chunks: testSetChunks, submissions: 1, maps: 1, writes: 1, dispatches: testSetChunks * chunkDispatches, outFloats: outFloats}
	wantSmall := planCounts{chunks: smallChunks, submissions: 1, maps: 1, writes: 1, dispatches: smallChunks * chunkDispatches, outFloats: outFloats}
	hw := planBatch(t, shipped, native, false, batch)
	if hw != want {
		t.Errorf("hardware plan of the test set: %+v, want %+v", hw, want)
	}
	shippedSmall := wantSmall
	shippedSmall.dispatches += smallChunks // each chunk's tagger split
	if hw := planBatch(t, shipped, small, false, batch); hw != shippedSmall {
		t.Errorf("hardware plan of the test set in chunks of %d tokens: %+v, want %+v", smallChunkTokens, hw, shippedSmall)
	}
	if len(models) > 1 {
		// The shipped ensemble on one device (NewEnsemble): the same
		// chunks, submission, map and read-back, each model's dispatches.
		others := make([]*network.Params, 0, len(models)-1)
		for _, m := range models[1:] {
			others = append(others, m.Params)
		}
		for _, tc := range []struct {
			o    Options
			want planCounts
		}{{native, want}, {small, shippedSmall}} {
			// Chunks that fit the arena's rows once per model run each
			// layer's loops, the word gather, the input projections and
			// the endpoint MLPs of all models in one dispatch each.
			wantAll := tc.want
			wantAll.dispatches *= len(models)
			o := tc.o.withDefaults(false)
			l, err := newEnsembleLayout(c, o, len(models))
			if err != nil {
				t.Fatal(err)
			}
			for _, ch := range planChunks(batch, l) {
				wantAll.dispatches -= sharedDispatches(l, ch, planLimitsFor(o, false), len(models), true) * (len(models) - 1)
			}
			if all := planBatch(t, shipped, tc.o, false, batch, others...); all != wantAll {
				t.Errorf("hardware plan of the test set in chunks of %d tokens for the shipped ensemble of %d on one device: %+v, want %+v", o.ChunkTokens, len(models), all, wantAll)
			}
		}
	}
	sw := planBatch(t, shipped, Options{}, true, batch)
	hw128 := planBatch(t, shipped, Options{}, false, batch)
	t.Logf("test set (%d sentences), shipped model: hardware plan %+v (read-back %.0f MiB); with 128 MiB bindings %+v; software plan %+v", len(batch), hw, float64(4*hw.outFloats)/(1<<20), hw128, sw)

	twin := smallTwin(t, shipped.Config())
	o := Options{asHardware: true, ChunkTokens: smallChunkTokens}
	lShipped, err := newLayout(shipped.Config(), small.withDefaults(false))
	if err != nil {
		t.Fatal(err)
	}
	lTwin, err := newLayout(twin.Params.Config(), o.withDefaults(false))
	if err != nil {
		t.Fatal(err)
	}
	if lShipped.tokCap != lTwin.tokCap || lShipped.pairCap != lTwin.pairCap || lShipped.sentCap != lTwin.sentCap || lShipped.charCap != lTwin.charCap {
		t.Fatalf("the twin's chunk capacities differ from the shipped model's: tokens %d/%d pairs %d/%d sentences %d/%d chars %d/%d",
			lTwin.tokCap, lShipped.tokCap, lTwin.pairCap, lShipped.pairCap, lTwin.sentCap, lShipped.sentCap, lTwin.charCap, lShipped.charCap)
	}
	want = wantSmall // the twin's tagger: too short to split
	if tw := planBatch(t, twin.Params, Options{ChunkTokens: smallChunkTokens}, false, batch); tw != want {
		t.Errorf("hardware plan of the twin: %+v, want %+v", tw, want)
	}

	s := openScorer(t, twin.Params, o)
	if s.opts.SubmitWork != 0 || s.lay.tokCap != lShipped.tokCap {
		t.Fatalf("asHardware: SubmitWork %g, chunk tokens %d; want 0 (no bound), %d", s.opts.SubmitWork, s.lay.tokCap, lShipped.tokCap)
	}
	s.d.calls = callCounts{}
	start := time.Now()
	got, err := s.Score(batch)
	if err != nil {
		t.Fatal(err)
	}
	calls := s.d.calls
	t.Logf("run on %s as a hardware adapter in %v: %+v", s.Backend(), time.Since(start), calls)
	wantCalls := callCounts{submits: want.submissions, maps: want.maps, dispatches: want.dispatches, writes: want.writes}
	if calls != wantCalls {
		t.Errorf("device calls scoring the test set: %+v, want %+v", calls, wantCalls)
	}
	ref, err := scorer.NewCPU(twin).Score(batch)
	if err != nil {
		t.Fatal(err)
	}
	d := compare(t, got, ref)
	t.Logf("against the CPU reference: max abs diff scores %.3g, tags %.3g; trees differing %d/%d", d.scores, d.tags, d.trees, len(batch))
	if d.scores > tolF32 || d.tags > tolF32 || d.trees > 0 {
		t.Errorf("max abs diff scores %.3g, tags %.3g (tolerance %g); %d trees differ", d.scores, d.tags, tolF32, d.trees)
	}
}

// TestSchedule checks the grouping, placement and cuts of schedule on
// jobs of made-up sizes: results and tables placed back to back (tables
// 256-byte aligned) within a group, a new group where the staging or
// upload capacity would be exceeded (a job alone always fits), and
// submissions cut before the dispatch that would pass the work bound.
func TestSchedule(t *testing.T) {
	// mk returns a job of n dispatches of work w each, ints ints and outLen
	// results.
	mk := func(n int, w float64, ints, outLen int) *job {
		j := &job{ints: make([]uint32, ints), outLen: outLen}
		for range n {
			j.ds = append(j.ds, dispatch{work: w})
		}
		return j
	}
	three := func() []*job { return []*job{mk(2, 1, 10, 100), mk(3, 1, 70, 200), mk(1, 1, 0, 300)} }
	cases := []struct {
		name       string
		jobs       []*job
		submitWork float64
		staging    int     // bytes
		upload     int     // bytes
		groups     [][]int // job indices of each group
		outAt      []int
		uniAt      []int
		intsAt     []int
		cuts       [][]cut // of each group
	}{
		{"one group, no bound", three(), 0, 1 << 20, 1 << 20,
			[][]int{{0, 1, 2}}, []int{0, 100, 300}, []int{0, 768, 2048}, []int{512, 1536, 2304}, [][]cut{nil}},
		{"staging splits", three(), 0, 4 * 300, 1 << 20,
			[][]int{{0, 1}, {2}}, []int{0, 100, 0}, []int{0, 768, 0}, []int{512, 1536, 256}, [][]cut{nil, nil}},
		{"a job over the staging capacity alone", three(), 0, 4, 1 << 20,
			[][]int{{0}, {1}, {2}}, []int{0, 0, 0}, []int{0, 0, 0}, []int{512, 768, 256}, [][]cut{nil, nil, nil}},
		{"upload splits", three(), 0, 1 << 20, 1024,
			[][]int{{0}, {1}, {2}}, []int{0, 0, 0}, []int{0, 0, 0}, []int{512, 768, 256}, [][]cut{nil, nil, nil}},
		{"work bound: cuts inside and between jobs", three(), 2, 1 << 20, 1 << 20,
			[][]int{{0, 1, 2}}, []int{0, 100, 300}, []int{0, 768, 2048}, []int{512, 1536, 2304}, [][]cut{{{1, 0}, {1, 2}}}},
		{"a dispatch over the bound gets a submission of its own", []*job{mk(1, 1, 0, 0), mk(1, 5, 0, 0), mk(1, 1, 0, 0)}, 2, 1 << 20, 1 << 20,
			[][]int{{0, 1, 2}}, []int{0, 0, 0}, []int{0, 256, 512}, []int{256, 512, 768}, [][]cut{{{1, 0}, {2, 0}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			groups := schedule(tc.jobs, tc.submitWork, tc.staging, tc.upload)
			index := map[*job]int{}
			for i, j := range tc.jobs {
				index[j] = i
			}
			var got [][]int
			var cuts [][]cut
			for _, g := range groups {
				var ids []int
				for _, j := range g.jobs {
					ids = append(ids, index[j])
				}
				got = append(got, ids)
				cuts = append(cuts, g.cuts)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.groups) || fmt.Sprint(cuts) != fmt.Sprint(tc.cuts) {
				t.Errorf("groups %v cuts %v, want %v cuts %v", got, cuts, tc.groups, tc.cuts)
			}
			for i, j := range tc.jobs {
				if j.outAt != tc.outAt[i] || j.uniAt != tc.uniAt[i] || j.intsAt != tc.intsAt[i] {
					t.Errorf("job %d at out %d uniforms %d ints %d, want %d %d %d", i, j.outAt, j.uniAt, j.intsAt, tc.outAt[i], tc.uniAt[i], tc.intsAt[i])
				}
			}
		})
	}
}

// BenchmarkPlan_TestSet measures the host's part of scoring the Alpino
// test set as one batch on a hardware adapter with the shipped model,
// besides encoding the commands and reading back: chunks, dispatches,
// schedule and the upload buffer's bytes (as Score and prepare do).
func BenchmarkPlan_TestSet(b *testing.B) {
	f, batch := testSet(b)
	models, err := f.Models()
	if err != nil {
		b.Fatal(err)
	}
	p := models[0].Params
	o := Options{}.withDefaults(false)
	l, err := newLayout(p.Config(), o)
	if err != nil {
		b.Fatal(err)
	}
	wm, err := mapWeights(p, weightBudget(o))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		chunks := planChunks(batch, l)
		for _, g := range schedule(chunkJobs(l, []weightMap{wm}, chunks, planLimits{}), 0, stagingLimit, uploadLimit) {
			_ = uploadBytes(g)
		}
	}
}
