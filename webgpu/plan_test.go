//go:build js || (cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64))))

package webgpu

import (
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/discspan/discspan/network"
)

func TestPlanChunks(t *testing.T) {
	c := microConfig()
	o := Options{MaxWords: 30, ChunkTokens: 64}.withDefaults(true)
	l, err := newLayout(c, o)
	if err != nil {
		t.Fatal(err)
	}
	many := make([]int, 40)
	for i := range many {
		many[i] = 1 + i%13
	}
	cases := []struct {
		name    string
		lengths []int
		chunks  int // expected number of chunks, -1: any
	}{
		{"empty batch", nil, 0},
		{"only empty sentences", []int{0, 0}, 0},
		{"one word", []int{1}, 1},
		{"longest accepted", []int{30}, 1},
		{"two long", []int{30, 30}, 2},
		{"many short", many, -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			batch := randomBatch(c, 1, tc.lengths...)
			chunks := planChunks(batch, l)
			if tc.chunks >= 0 && len(chunks) != tc.chunks {
				t.Errorf("%d chunks, want %d", len(chunks), tc.chunks)
			}
			seen := map[int]int{}
			for _, ch := range chunks {
				if ch.tokens > l.tokCap || ch.pairs > l.pairCap || len(ch.sents) > l.sentCap || len(ch.ints) > l.ints || ch.outLen > l.outCap {
					t.Errorf("chunk over capacity: tokens %d/%d pairs %d/%d sentences %d/%d ints %d/%d out %d/%d",
						ch.tokens, l.tokCap, ch.pairs, l.pairCap, len(ch.sents), l.sentCap, len(ch.ints), l.ints, ch.outLen, l.outCap)
				}
				if !slices.IsSortedFunc(ch.n, func(a, b int) int { return b - a }) {
					t.Errorf("sentence lengths %v not decreasing", ch.n)
				}
				checkRows(t, "sentence", ch.sentRows, len(ch.n), ch.maxN+2)
				checkRows(t, "char", ch.charRows, ch.tokens, c.MaxChars+2)
				for _, i := range ch.sents {
					seen[i]++
				}
			}
			for i, in := range batch {
				if want := min(in.Len(), 1); seen[i] != want {
					t.Errorf("sentence %d (%d words) in %d chunks, want %d", i, in.Len(), seen[i], want)
				}
			}
		})
	}
}

// checkRows checks the rows running at each LSTM step: all of them at step
// 0, never increasing, steps as many as the longest sequence.
func checkRows(t *testing.T, what string, rows []int, all, longest int) {
	t.Helper()
	if len(rows) == 0 {
		return
	}
	if rows[0] != all || len(rows) > longest || !slices.IsSortedFunc(rows, func(a, b int) int { return b - a }) {
		t.Errorf("%s rows per step %v: want %d at first, decreasing, at most %d steps", what, rows, all, longest)
	}
}

func TestPackInterleave(t *testing.T) {
	// A (4H, H) w_hh with H = 2, rows gate-major: value = 10*row + col.
	h := 2
	m := make([]float32, 4*h*h)
	for r := range 4 * h {
		for k := range h {
			m[r*h+k] = float32(10*r + k)
		}
	}
	got := interleaveCols(transpose(m, 4*h, h), h, h)
	// Packed (k, 4j+q) holds W[q*H+j][k].
	for k := range h {
		for j := range h {
			for q := range 4 {
				if want := float32(10*(q*h+j) + k); got[k*4*h+4*j+q] != want {
					t.Errorf("packed[%d][%d] = %g, want %g", k, 4*j+q, got[k*4*h+4*j+q], want)
				}
			}
		}
	}
	rows := interleaveRows(m, h, h)
	for j := range h {
		for q := range 4 {
			if want := m[(q*h+j)*h]; rows[(4*j+q)*h] != want {
				t.Errorf("row %d starts with %g, want %g", 4*j+q, rows[(4*j+q)*h], want)
			}
		}
	}
}

func TestNewRejects(t *testing.T) {
	c := microConfig()
	big := c
	big.LSTM1Hidden = maxHidden + 1
	p, err := network.NewParams(big)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(p, Options{}); err == nil {
		t.Errorf("New with lstm1_hidden %d: no error", big.LSTM1Hidden)
	}
}

func TestOrderByCount(t *testing.T) {
	cases := []struct {
		name   string
		counts []int
		want   []int
	}{
		{"empty", nil, []int{}},
		{"one", []int{3}, []int{0}},
		{"decreasing, ties in index order", []int{3, 5, 3, 0, 5, 4}, []int{1, 4, 5, 0, 2, 3}},
		{"all equal", []int{2, 2, 2}, []int{0, 1, 2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := orderByCount(tc.counts); !slices.Equal(got, tc.want) {
				t.Errorf("orderByCount(%v) = %v, want %v", tc.counts, got, tc.want)
			}
		})
	}
}

// TestAdapterDefaults checks the plan each kind of adapter gets by
// default: chunk tokens, submission bound and where the LSTM loop kernel
// runs (every chunk on a hardware adapter, chunks of at most loopSentences
// sentences within llvmpipe's loop limit on a software one), and that the
// benchmarks' override of the loop's reach applies to both.
func TestAdapterDefaults(t *testing.T) {
	hardwareChunk := DefaultChunkTokens
	if runtime.GOOS == "js" {
		hardwareChunk = BrowserChunkTokens
	}
	cases := []struct {
		name       string
		o          Options
		software   bool
		chunk      int
		submitWork float64
		lim        planLimits
	}{
		{"hardware", Options{}, false, hardwareChunk, 0, planLimits{splitInner: true}},
		{"hardware, products whole", Options{noSplitInner: true}, false, hardwareChunk, 0, planLimits{}},
		{"software, products split (tests)", Options{TestSplitInner: true}, true, SoftwareChunkTokens, SoftwareSubmitWork,
			planLimits{maxWork: SoftwareSubmitWork, loopIters: softwareLoopLimit, loopSents: loopSentences, splitInner: true}},
		{"software", Options{}, true, SoftwareChunkTokens, SoftwareSubmitWork,
			planLimits{maxWork: SoftwareSubmitWork, loopIters: softwareLoopLimit, loopSents: loopSentences}},
		{"hardware, chunk and loop reach set", Options{ChunkTokens: 1000, loopSentences: 2}, false, 1000, 0, planLimits{loopSents: 2, splitInner: true}},
		{"software, loop reach set", Options{loopSentences: 64}, true, SoftwareChunkTokens, SoftwareSubmitWork,
			planLimits{maxWork: SoftwareSubmitWork, loopIters: softwareLoopLimit, loopSents: 64}},
		// The units' sums split (lstm_loop.wgsl split) where the device
		// allows workgroups of 1024 invocations.
		{"hardware, workgroups of 1024", Options{workgroupLimit: 1024}, false, hardwareChunk, 0, planLimits{splitInner: true, splitLoop: true}},
		{"hardware, workgroups of 1024, units' sums whole", Options{workgroupLimit: 1024, noSplitLoop: true}, false, hardwareChunk, 0, planLimits{splitInner: true}},
		{"hardware, workgroups of 512", Options{workgroupLimit: 512}, false, hardwareChunk, 0, planLimits{splitInner: true}},
		{"software, workgroups of 1024", Options{workgroupLimit: 1024}, true, SoftwareChunkTokens, SoftwareSubmitWork,
			planLimits{maxWork: SoftwareSubmitWork, loopIters: softwareLoopLimit, loopSents: loopSentences}},
		{"software, workgroups of 1024, units split (tests)", Options{workgroupLimit: 1024, TestSplitLoop: true}, true, SoftwareChunkTokens, SoftwareSubmitWork,
			planLimits{maxWork: SoftwareSubmitWork, loopIters: softwareLoopLimit, loopSents: loopSentences, splitLoop: true}},
		{"software, workgroups of 256, units split asked", Options{TestSplitLoop: true}, true, SoftwareChunkTokens, SoftwareSubmitWork,
			planLimits{maxWork: SoftwareSubmitWork, loopIters: softwareLoopLimit, loopSents: loopSentences}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o.withDefaults(tc.software)
			if o.ChunkTokens != tc.chunk || o.SubmitWork != tc.submitWork || o.MaxWords != DefaultMaxWords {
				t.Errorf("chunk tokens %d, submit work %g, max words %d; want %d, %g, %d",
					o.ChunkTokens, o.SubmitWork, o.MaxWords, tc.chunk, tc.submitWork, DefaultMaxWords)
			}
			if lim := planLimitsFor(o, tc.software); lim != tc.lim {
				t.Errorf("plan limits %+v, want %+v", lim, tc.lim)
			}
		})
	}
}

// TestInnerSlices: which Linear products the planner splits over their
// inner dimension, into how many slices of how many columns, for the
// shipped small preset's sizes (BiLSTMs 288, 28 labels, 40 tags: inner
// 224, 576 and 576), one model or two: one sentence's products (22 rows),
// all but the widest short ones; 64 sentences' (about 1400 rows) none;
// none on a software adapter; and the slices bounded by the label scratch
// that holds their sums.
func TestInnerSlices(t *testing.T) {
	c := network.Small()
	c.Labels, c.Tags, c.WordVocab, c.CharVocab = 28, 40, 1000, 100
	o := Options{}.withDefaults(false)
	l, err := newLayout(c, o)
	if err != nil {
		t.Fatal(err)
	}
	tight := *l
	tight.pairCap = (2*2*2*22*1152 + c.Labels - 1) / c.Labels // room for two slices of two models' lstm2 projections
	cases := []struct {
		name                    string
		l                       *layout
		split                   bool
		members                 int
		rows, cols, inner, zs   int
		wantSlices, wantPerCols int
	}{
		{"one sentence: lstm1 input projection (36 tiles, 14 steps)", l, true, 1, 22, 4 * 288, 224, 2, 3, 80},
		{"one sentence: tagger (1 tile, 36 steps)", l, true, 1, 22, 40, 576, 1, 9, 64},
		{"one sentence: lstm2 input projection (36 tiles)", l, true, 1, 22, 4 * 288, 576, 2, 4, 144},
		{"one sentence: endpoint MLPs (12 tiles, 36 steps)", l, true, 1, 22, 6 * 256, 576, 1, 6, 96},
		{"one sentence, 2 models: the same slices", l, true, 2, 22, 4 * 288, 576, 2, 4, 144},
		{"64 sentences: lstm2 input projection (792 tiles)", l, true, 1, 1400, 4 * 288, 576, 2, 1, 576},
		{"short inner (7 steps)", l, true, 1, 22, 40, 112, 1, 1, 112},
		{"software adapter", l, false, 1, 22, 40, 576, 1, 1, 576},
		{"2 models, scratch for two slices", &tight, true, 2, 22, 4 * 288, 576, 2, 2, 288},
		{"3 models, scratch for one slice: whole", &tight, true, 3, 22, 4 * 288, 576, 2, 1, 576},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := *tc.l
			l.members = tc.members
			p := &planner{l: &l, split: tc.split}
			slices, per := p.innerSlices(tc.rows, tc.cols, tc.inner, tc.zs)
			if slices != tc.wantSlices || per != tc.wantPerCols {
				t.Fatalf("%d slices of %d, want %d of %d", slices, per, tc.wantSlices, tc.wantPerCols)
			}
			if slices > 1 && (per%16 != 0 || (slices-1)*per >= tc.inner || slices*per < tc.inner) {
				t.Errorf("slices of %d do not cover an inner dimension of %d in %d", per, tc.inner, slices)
			}
			if need := tc.members * tc.zs * slices * tc.rows * tc.cols; slices > 1 && need > tc.l.c.Labels*tc.l.pairCap {
				t.Errorf("the slices' sums take %d floats, over the label scratch's %d", need, tc.l.c.Labels*tc.l.pairCap)
			}
		})
	}
}

// TestLoopSlices: how many invocations share each unit's sum in
// lstm_loop.wgsl's split entry, and how many rows of W_hhᵀ each sums, for
// the presets' hidden sizes and others: the slices cover the rows, fit the
// workgroup (S*H <= 1024) and its partial sums ((S-1)*H <= 768); hidden
// sizes above 512 are not split. And which chunks the planner splits.
func TestLoopSlices(t *testing.T) {
	cases := []struct {
		hid, slices, length int
	}{
		{192, 5, 40}, // tiny; rows padded to 8: slices [0,40), ..., [160,192)
		{288, 3, 96}, // small (the shipped pair)
		{256, 4, 64},
		{320, 3, 112}, // rows padded to 8: slices [0,112), [112,224), [224,320)
		{384, 2, 192}, // 3 slices would need 1152 invocations
		{512, 2, 256},
		{513, 0, 0},
		{64, 8, 8},
		{13, 8, 2}, // 8 rows would leave the last five slices empty
		{1, 8, 1},
	}
	for _, tc := range cases {
		if s, l := loopSlices(tc.hid, 0); s != tc.slices || l != tc.length {
			t.Errorf("H %d: %d slices of %d rows, want %d of %d", tc.hid, s, l, tc.slices, tc.length)
		}
	}
	for hid := 1; hid <= 1100; hid++ {
		s, l := loopSlices(hid, 0)
		if capped, _ := loopSlices(hid, 2); capped != min(s, 2) {
			t.Fatalf("H %d: %d slices capped at 2: %d", hid, s, capped)
		}
		if (s == 0) != (hid > splitLoopHidden) {
			t.Fatalf("H %d: %d slices", hid, s)
		}
		if s > 0 && (s < 2 || hid > splitLoopHidden || s*hid > splitLoopWidth || (s-1)*hid > splitLoopPartials || l < 1 || s*l < hid) {
			t.Fatalf("H %d: %d slices of %d rows: not within the workgroup and its partial sums, or not covering the rows", hid, s, l)
		}
	}

	// The char loop: one group of charLoopWidth invocations a slice.
	for _, tc := range []struct{ hid, most, slices, length int }{
		{64, 0, 4, 16}, // the presets' char LSTM
		{64, 2, 2, 32},
		{48, 0, 4, 12}, // 16 rows would leave the last slice empty
		{9, 0, 4, 3},   // the micro model's
		{3, 0, 3, 1},
		{256, 0, 4, 64},
		{257, 0, 0, 0},
	} {
		if s, l := charSlices(tc.hid, tc.most); s != tc.slices || l != tc.length {
			t.Errorf("char H %d, at most %d: %d slices of %d rows, want %d of %d", tc.hid, tc.most, s, l, tc.slices, tc.length)
		}
	}
	for hid := 1; hid <= charLoopWidth; hid++ {
		if s, l := charSlices(hid, 0); s < 1 || (s-1)*charLoopWidth > splitLoopPartials || s*charLoopWidth > splitLoopWidth || s*l < hid {
			t.Fatalf("char H %d: %d slices of %d rows: not within the workgroup and its partial sums, or not covering the rows", hid, s, l)
		}
	}

	c := network.Small()
	c.Labels, c.Tags, c.WordVocab, c.CharVocab = 28, 40, 1000, 100
	l, err := newLayout(c, Options{}.withDefaults(false))
	if err != nil {
		t.Fatal(err)
	}
	plans := []struct {
		name      string
		splitLoop bool
		most      int // Options.loopSlicesMost
		sentences int
		want      kernel
	}{
		{"one sentence", true, 0, 1, kLSTMSplit},
		{"one sentence, at most 2 slices", true, 2, 1, kLSTMSplit},
		{"128 sentences", true, 0, splitLoopSentences, kLSTMSplit},
		{"129 sentences", true, 0, splitLoopSentences + 1, kLSTMLoop},
		{"one sentence, not allowed", false, 0, 1, kLSTMLoop},
	}
	for _, tc := range plans {
		t.Run(tc.name, func(t *testing.T) {
			lim := planLimitsFor(Options{TestSplitLoop: true, noSplitLoop: !tc.splitLoop, loopSlicesMost: tc.most, workgroupLimit: splitLoopWidth}.withDefaults(true), true)
			p := &planner{l: l, wm: &weightMap{}, splitLoop: lim.splitLoop, loopSlicesMost: lim.loopSlicesMost}
			p.lstmLoop("lstm2", c.LSTM2Hidden, &chunk{n: make([]int, tc.sentences), maxN: 20}, 0)
			if len(p.ds) != 1 || p.ds[0].kernel != tc.want {
				t.Fatalf("dispatches %+v, want one of kernel %d", p.ds, tc.want)
			}
			prm := paramsOf[lstmParams](p.ds[0].params)
			if slices, length := loopSlices(c.LSTM2Hidden, tc.most); tc.want == kLSTMSplit && (prm.Slices != uint32(slices) || prm.SliceLen != uint32(length) || tc.most > 0 && slices != tc.most) {
				t.Errorf("parameters: %d slices of %d, want %d of %d", prm.Slices, prm.SliceLen, slices, length)
			}
			if g := p.ds[0].grid; g != [3]uint32{uint32(tc.sentences), 2, 1} {
				t.Errorf("grid %v, want a workgroup per sentence and direction", g)
			}
			// The char loop splits with the sentence loops (one sentence
			// of 20 words; the 129 sentences' chunk as the same count).
			chars := &chunk{n: make([]int, tc.sentences), tokens: 20, charRows: make([]int, 9)}
			p.ds = nil
			p.charLoop(chars)
			want := map[kernel]kernel{kLSTMSplit: kCharSplit, kLSTMLoop: kCharLoop}[tc.want]
			if len(p.ds) != 1 || p.ds[0].kernel != want {
				t.Fatalf("char loop: dispatches %+v, want one of kernel %d", p.ds, want)
			}
			cp := paramsOf[lstmParams](p.ds[0].params)
			if slices, length := charSlices(c.CharHidden, tc.most); want == kCharSplit && (cp.Slices != uint32(slices) || cp.SliceLen != uint32(length)) {
				t.Errorf("char loop parameters: %d slices of %d, want %d of %d", cp.Slices, cp.SliceLen, slices, length)
			}
		})
	}
}

// TestChunkSegments: the segments of a chunk's results (chunk.segments)
// start at 0 and at sentence blocks, in order, each but the last holding at
// least segmentFloats; every piece of the read-back and every block of a
// sentence's scores lies in one segment, and results.slice returns it
// where its offset says. The Alpino test set in one chunk, and in the
// chunks of the default hardware layout.
func TestChunkSegments(t *testing.T) {
	f, batch := testSet(t)
	c := f.Meta.Config
	for _, tokens := range []int{DefaultChunkTokens, 1 << 15} {
		o := Options{ChunkTokens: tokens, bindingLimit: 2 << 30}.withDefaults(false)
		l, err := newLayout(c, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, ch := range planChunks(batch, l) {
			starts := ch.segments()
			if starts[0] != 0 || !slices.IsSorted(starts) {
				t.Fatalf("segments start at %v", starts)
			}
			for k, at := range starts {
				if k > 0 && (!slices.Contains(ch.fullOff, at) || at-starts[k-1] < segmentFloats) {
					t.Errorf("segment %d starts at %d: not a sentence's block, or %d floats after the last", k, at, at-starts[k-1])
				}
			}
			var wg sync.WaitGroup
			r := newResults(starts, ch.fullLen, &wg)
			wg.Wait()
			if n := len(r.segs[len(r.segs)-1]) + starts[len(starts)-1]; n != ch.fullLen {
				t.Errorf("segments end at %d, want %d", n, ch.fullLen)
			}
			// Mark each float with its offset; every run must read back so.
			for k, seg := range r.segs {
				for i := range seg {
					seg[i] = float32(starts[k] + i)
				}
			}
			check := func(what string, at, n int) {
				v := r.slice(at, n)
				if len(v) != n || cap(v) != n || n > 0 && (v[0] != float32(at) || v[n-1] != float32(at+n-1)) {
					t.Fatalf("%s at %d (%d floats): got %d floats from %v", what, at, n, len(v), v[:min(1, len(v))])
				}
			}
			for _, pc := range ch.pieces() {
				check("piece", pc.at, pc.n)
			}
			for j, n := range ch.n {
				for k := range 3 {
					check("block", ch.fullOff[j]+k*n*n*c.Labels, n*n*c.Labels)
				}
			}
			if tokens > DefaultChunkTokens && len(starts) < 10 {
				t.Errorf("the test set in one chunk of %d floats: %d segments", ch.fullLen, len(starts))
			}
		}
	}
}
