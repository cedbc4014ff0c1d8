package train

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/network"
)

// Streams of the PCG generators drawn from the seed, so that no two uses of
// the seed share a sequence.
const (
	streamBatches = 1 << 32 // + epoch: batch composition and order
	streamDropout = 2 << 32 // + update: dropout seed of an update
	streamInit    = 3 << 32 // parameter initialisation seed
	streamWords   = 4 << 32 // + update: word dropout of an update
)

// makeBatches returns the batches of one epoch as lists of example indices:
// sentences grouped by length (shuffled, then stably sorted by length, so
// that sentences of equal length change company between epochs), cut into
// batches of at most maxWords words (a longer sentence makes a batch alone),
// in shuffled order. The result is a function of (lengths, maxWords, seed,
// epoch) only. Cost O(S log S) for S sentences.
func makeBatches(lengths []int, maxWords int, seed uint64, epoch int) [][]int {
	rng := rand.New(rand.NewPCG(seed, streamBatches+uint64(epoch)))
	order := rng.Perm(len(lengths))
	slices.SortStableFunc(order, func(a, b int) int { return lengths[a] - lengths[b] })
	var batches [][]int
	var cur []int
	words := 0
	for _, i := range order {
		if len(cur) > 0 && words+lengths[i] > maxWords {
			batches = append(batches, cur)
			cur, words = nil, 0
		}
		cur = append(cur, i)
		words += lengths[i]
	}
	if len(cur) > 0 {
		batches = append(batches, cur)
	}
	rng.Shuffle(len(batches), func(a, b int) { batches[a], batches[b] = batches[b], batches[a] })
	return batches
}

// dropoutSeed returns the dropout seed of optimiser update u (1-based).
func dropoutSeed(seed uint64, u int) uint64 {
	return rand.New(rand.NewPCG(seed, streamDropout+uint64(u))).Uint64()
}

// initSeed returns the seed of the parameter initialisation.
func initSeed(seed uint64) uint64 { return rand.New(rand.NewPCG(seed, streamInit)).Uint64() }

// treesHash fingerprints a treebank (words, tags, labels and parent links)
// and each tree's repeat count other than 1 (FILE*K), so that a resumed run
// can check it reads the same training data, weighted alike.
func treesHash(trees []*tree.Tree, repeats []int) string {
	h := sha256.New()
	for i, t := range trees {
		if repeats != nil && repeats[i] != 1 {
			fmt.Fprintf(h, "*%d|", repeats[i]) // absent for a count of 1: fingerprints of lists without repeats stay as they were
		}
		fmt.Fprintf(h, "%d|", len(t.Tokens))
		for _, tok := range t.Tokens {
			fmt.Fprintf(h, "%q %q %d|", tok.Word, tok.Tag, tok.Parent)
		}
		for _, nd := range t.Nodes {
			fmt.Fprintf(h, "%q %d|", nd.Label, nd.Parent)
		}
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// wordCounts returns, for every word id, how often it occurs in the
// training examples.
func wordCounts(examples []example, vocabSize int) []int {
	counts := make([]int, vocabSize)
	for i := range examples {
		for _, w := range examples[i].input.WordIDs {
			if w >= 0 && w < vocabSize {
				counts[w]++
			}
		}
	}
	return counts
}

// dropWords returns ids with each ordinary word (id >= firstWord) replaced
// by network.UnkWord with probability alpha/(alpha+count), so that rare
// words teach the unknown-word embedding; ids itself is not changed.
func dropWords(ids, counts []int, alpha float64, firstWord int, rng *rand.Rand) []int {
	out := slices.Clone(ids)
	for j, w := range out {
		if w < firstWord || w >= len(counts) {
			continue
		}
		if rng.Float64() < alpha/(alpha+float64(counts[w])) {
			out[j] = network.UnkWord
		}
	}
	return out
}
