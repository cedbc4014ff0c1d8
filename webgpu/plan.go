package webgpu

import (
	"sort"
	"sync"

	"github.com/discspan/discspan/network"
)

// chunk is the part of a batch whose activations the arena holds at once
// (see layout), with the tables its kernels read (the ints buffer):
//
//	sentence table  at 0:         [first token, words, score offset, span offset] per sentence
//	token table     at tokTable:  [word id, first char (ints index), char count] per token
//	char ids        after it:     [BOW, chars..., EOW] per token ([BOW, BOS|EOS, EOW] for BOS, EOS)
//	token order     at order:     token indices by decreasing char count (the char LSTM's rows)
//
// A sentence's tokens are BOS, its words and EOS, at rows first..first+n+1.
// Score offsets locate its cont, disc and gap blocks in the out region,
// each packed: the upper triangle only, row x holding the (n-x)*Labels
// scores of its spans (x, y >= x), n(n+1)/2*Labels in all (see
// assemble.wgsl); span offsets locate its n*n span scores in the span
// scratch, and times Labels its n*n*Labels label scores in the label
// scratch. The read-back (the out region) is so about half the size of
// the decoder's layout, into which its rows are copied (see chunk.pieces).
// The sentences are in order of decreasing length (the sentence LSTM's
// rows).
type chunk struct {
	sents    []int // indices in the batch, in chunk order
	n        []int // words of each sentence
	first    []int // token row of each sentence's BOS
	fullOff  []int // each sentence's scores in the results (the decoder's layout: n*n*Labels a block)
	tokens   int
	pairs    int
	maxN     int
	tokTable int
	order    int   // ints offset of the token order
	charRows []int // tokens still running at each char LSTM step
	sentRows []int // sentences still running at each sentence LSTM step
	tagsOff  int   // offset of the tag rows (tokens, Tags) in the out region
	outLen   int   // floats of the out region holding results
	fullTags int   // offset of the tag rows in the results
	fullLen  int   // floats of the results
	labels   int   // labels of the model
	ints     []uint32
}

// triangle returns the cells x <= y of an n-word sentence: n(n+1)/2.
func triangle(n int) int { return n * (n + 1) / 2 }

// pieces returns where the out region's values go in the results, in the
// out region's order: each packed row of each block (its scores for the
// spans (x, x..n-1)), then the tag rows; each piece as an offset in the
// results and a length, the pieces back to back in the out region.
func (ch *chunk) pieces() []piece {
	L := ch.labels
	var ps []piece
	for j, n := range ch.n {
		for k := range 3 {
			block := ch.fullOff[j] + k*n*n*L
			for x := range n {
				ps = append(ps, piece{at: block + (x*n+x)*L, n: (n - x) * L})
			}
		}
	}
	return append(ps, piece{at: ch.fullTags, n: ch.outLen - ch.tagsOff})
}

// piece is a run of results: n floats from offset at.
type piece struct{ at, n int }

// segmentFloats is the least floats of a segment of a chunk's results
// (chunk.segments) but the last: 4 MiB.
const segmentFloats = 1 << 20

// segments returns where the segments of the chunk's results start (the
// first at 0), each allocated apart, on a goroutine of its own: one slice
// for the Alpino test set's 115 MiB in one chunk took 18 ms to allocate
// and clear on an H200's host, as long as the device's work. A segment
// starts at a sentence's block (every piece and every sentence's scores
// lie in one) once the one before holds at least segmentFloats; the tag
// rows are in the last.
func (ch *chunk) segments() []int {
	starts := []int{0}
	for _, off := range ch.fullOff[min(1, len(ch.fullOff)):] {
		if off-starts[len(starts)-1] >= segmentFloats {
			starts = append(starts, off)
		}
	}
	return starts
}

// results is a chunk's results in the decoder's layout, held in segments
// allocated apart (chunk.segments).
type results struct {
	starts []int       // each segment's first float in the layout
	segs   [][]float32 // the segments
}

// newResults returns the results of a chunk of fullLen floats in segments
// starting at starts, allocated on goroutines of their own, done once
// allocated is.
func newResults(starts []int, fullLen int, allocated *sync.WaitGroup) results {
	r := results{starts: starts, segs: make([][]float32, len(starts))}
	for k, at := range starts {
		end := fullLen
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		allocated.Add(1)
		go func() {
			defer allocated.Done()
			r.segs[k] = make([]float32, end-at)
		}()
	}
	return r
}

// slice returns the n floats of r from offset at, which lie in one
// segment (a piece, or a block of a sentence's scores).
func (r results) slice(at, n int) []float32 {
	k := sort.SearchInts(r.starts, at+1) - 1
	v := r.segs[k][at-r.starts[k]:]
	return v[:n:n]
}

// planChunks splits the non-empty sentences of batch into chunks within the
// layout's capacities, longest sentences first so that a chunk holds
// sentences of similar lengths (its pair kernel's grid is sized by the
// longest). Every sentence must have at most l.maxWords words.
func planChunks(batch []network.Input, l *layout) []*chunk {
	order := make([]int, 0, len(batch))
	for i, in := range batch {
		if in.Len() > 0 {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return batch[order[a]].Len() > batch[order[b]].Len() })
	var chunks []*chunk
	var cur []int
	tokens, pairs, chars := 0, 0, 0
	for _, i := range order {
		n := batch[i].Len()
		ch := sentenceChars(batch[i], l.c.MaxChars)
		if len(cur) > 0 && (tokens+n+2 > l.tokCap || pairs+n*n > l.pairCap ||
			chars+ch > l.charCap || len(cur) == l.sentCap) {
			chunks = append(chunks, buildChunk(batch, cur, l))
			cur, tokens, pairs, chars = nil, 0, 0, 0
		}
		cur = append(cur, i)
		tokens += n + 2
		pairs += n * n
		chars += ch
	}
	if len(cur) > 0 {
		chunks = append(chunks, buildChunk(batch, cur, l))
	}
	return chunks
}

// sentenceChars returns the characters the char LSTM reads for a sentence:
// min(len, maxChars)+2 per word, 3 for BOS and 3 for EOS.
func sentenceChars(in network.Input, maxChars int) int {
	total := 6
	for _, ids := range in.CharIDs {
		total += min(len(ids), maxChars) + 2
	}
	return total
}

// buildChunk lays out the sentences sents of batch and fills the ints
// tables.
func buildChunk(batch []network.Input, sents []int, l *layout) *chunk {
	c := l.c
	ch := &chunk{sents: sents}
	for _, i := range sents {
		n := batch[i].Len()
		ch.tokens += n + 2
		ch.pairs += n * n
		ch.maxN = max(ch.maxN, n)
	}
	ch.tokTable = 4 * len(sents)
	ints := make([]uint32, ch.tokTable+3*ch.tokens, ch.tokTable+4*ch.tokens+l.charCap)
	tok, score, span, full := 0, 0, 0, 0
	counts := make([]int, 0, ch.tokens)
	addToken := func(word int, chars []int, before, after int) {
		counts = append(counts, len(chars)+2)
		row := ch.tokTable + 3*tok
		ints[row] = uint32(word)
		ints[row+1] = uint32(len(ints))
		ints = append(ints, uint32(before))
		for _, id := range chars {
			ints = append(ints, uint32(id))
		}
		ints = append(ints, uint32(after))
		ints[row+2] = uint32(len(ints)) - ints[row+1]
		tok++
	}
	for s, i := range sents {
		in := batch[i]
		n := in.Len()
		ch.n = append(ch.n, n)
		ch.first = append(ch.first, tok)
		ch.fullOff = append(ch.fullOff, full)
		ints[4*s], ints[4*s+1], ints[4*s+2], ints[4*s+3] = uint32(tok), uint32(n), uint32(score), uint32(span)
		addToken(network.BOSWord, []int{network.BOSChar}, network.BOWChar, network.EOWChar)
		for w, id := range in.WordIDs {
			chars := in.CharIDs[w]
			addToken(id, chars[:min(len(chars), c.MaxChars)], network.BOWChar, network.EOWChar)
		}
		addToken(network.EOSWord, []int{network.EOSChar}, network.BOWChar, network.EOWChar)
		score += 3 * triangle(n) * c.Labels
		full += 3 * n * n * c.Labels
		span += n * n
	}
	// Token order for the char LSTM, and the rows running at each step.
	order := orderByCount(counts)
	ch.order = len(ints)
	for _, t := range order {
		ints = append(ints, uint32(t))
	}
	ch.charRows = stepRows(len(order), func(i int) int { return counts[order[i]] })
	ch.sentRows = stepRows(len(sents), func(i int) int { return ch.n[i] + 2 })
	ch.ints = ints
	ch.tagsOff = score
	ch.outLen = score + ch.tokens*c.Tags
	ch.fullTags = full
	ch.fullLen = full + ch.tokens*c.Tags
	ch.labels = c.Labels
	return ch
}

// orderByCount returns the indices of counts by decreasing count, equal
// counts in increasing index (a stable counting sort: O(len(counts) + the
// largest count)).
func orderByCount(counts []int) []int {
	top := 0
	for _, c := range counts {
		top = max(top, c)
	}
	next := make([]int, top+1) // first place of count top-b, for bucket b
	for _, c := range counts {
		next[top-c]++
	}
	at := 0
	for b, n := range next {
		next[b] = at
		at += n
	}
	order := make([]int, len(counts))
	for i, c := range counts {
		order[next[top-c]] = i
		next[top-c]++
	}
	return order
}

// stepRows returns, for each step s of sequences 0..n-1 whose lengths
// length(i) decrease with i, how many are longer than s.
func stepRows(n int, length func(i int) int) []int {
	if n == 0 {
		return nil
	}
	rows := make([]int, length(0))
	for i := range n {
		for s := range length(i) {
			rows[s] = max(rows[s], i+1)
		}
	}
	return rows
}
