package annotate

import (
	"cmp"
	"slices"
	"strings"

	"github.com/discspan/discspan/chart/tree"
)

// WordHit is an occurrence of a word sequence: words Start..End-1 of
// sentence Sentence (an index into Corpus.Sentences).
type WordHit struct{ Sentence, Start, End int }

// FindWords returns the occurrences of a contiguous word sequence,
// compared case-insensitively (Unicode simple folding), in corpus order.
// An empty sequence finds nothing.
func (c *Corpus) FindWords(words []string) []WordHit {
	if len(words) == 0 {
		return nil
	}
	var hits []WordHit
	for si, s := range c.Sentences {
		toks := s.Tree().Tokens
	next:
		for start := 0; start+len(words) <= len(toks); start++ {
			for k, w := range words {
				if !strings.EqualFold(toks[start+k].Word, w) {
					continue next
				}
			}
			hits = append(hits, WordHit{si, start, start + len(words)})
		}
	}
	return hits
}

// NodeHit is a node: node Node of sentence Sentence.
type NodeHit struct{ Sentence, Node int }

// FindLabel returns the nodes labelled label (compared exactly), in corpus
// order.
func (c *Corpus) FindLabel(label string) []NodeHit {
	var hits []NodeHit
	for si, s := range c.Sentences {
		for i, nd := range s.Tree().Nodes {
			if nd.Label == label {
				hits = append(hits, NodeHit{si, i})
			}
		}
	}
	return hits
}

// ConsistencyOptions bounds the word sequences Inconsistencies considers.
type ConsistencyOptions struct {
	MinWords int // shortest sequence; 0 means 2
	MaxWords int // longest sequence; 0 means no limit
}

// Occurrence is one place where a word sequence occurs.
type Occurrence struct {
	Sentence   int    // index into Corpus.Sentences
	ID         string // the sentence id
	Start, End int    // the words Start..End-1
	// Nodes are the nodes whose yield is exactly these words, top first;
	// empty where the words are not a constituent.
	Nodes []int
}

// Analysis is one way a word sequence is analysed, with where.
type Analysis struct {
	// Label is the label of the constituent over the words, or the labels
	// of a unary chain top first joined by "/"; "" where the words are not
	// a constituent.
	Label       string
	Occurrences []Occurrence
}

// Group is a word sequence that is analysed in more than one way.
type Group struct {
	Words    []string   // the sequence, lower-cased
	Analyses []Analysis // the most frequent first, then by label
}

// Count returns the number of occurrences of the group's word sequence.
func (g Group) Count() int {
	n := 0
	for _, a := range g.Analyses {
		n += len(a.Occurrences)
	}
	return n
}

// spanInfo is what covers a span of a sentence: the nodes with exactly that
// yield, top first, and their chain label.
type spanInfo struct {
	start, end int32
	label      int32 // index into the label table
	nodes      []int
}

// occ is a compact occurrence: sentence, span and analysis label.
type occ struct{ sent, start, end, label int32 }

// trie is a trie over word ids. Node 0 is the root.
type trie struct {
	next map[uint64]int32 // node<<32 | word -> child
	key  []int32          // per node: key index, or -1
}

func (t *trie) child(node, word int32) (int32, bool) {
	c, ok := t.next[uint64(node)<<32|uint64(uint32(word))]
	return c, ok
}

// Inconsistencies finds word sequences that are analysed differently in
// different places of the corpus ("variation n-grams"): a contiguous
// sequence of words (compared lower-cased) that is the yield of a
// continuous constituent somewhere, and elsewhere is the yield of a
// constituent with another label (or unary chain), or of no constituent.
// Discontinuous constituents are not considered, since their words are not
// a contiguous sequence. Groups come with the most occurrences first, then
// by their words.
//
// The word sequences that are constituents are put in a trie over interned
// words, and every sentence position is matched against it once, so the
// cost is linear in the size of the corpus times the depth the trie is
// walked, which is short for natural text.
func (c *Corpus) Inconsistencies(opt ConsistencyOptions) []Group {
	minW, maxW := opt.MinWords, opt.MaxWords
	if minW <= 0 {
		minW = 2
	}
	if maxW <= 0 {
		maxW = int(^uint(0) >> 1)
	}
	if maxW < minW {
		return nil
	}
	wordID := make(map[string]int32)
	var wordText []string
	labelID := map[string]int32{"": 0}
	labelText := []string{""}
	sents := make([][]int32, len(c.Sentences))
	spans := make([][]spanInfo, len(c.Sentences))
	size := 0 // an upper bound of the number of trie nodes
	for si, s := range c.Sentences {
		t := s.Tree()
		ids := make([]int32, len(t.Tokens))
		for i, tok := range t.Tokens {
			w := strings.ToLower(tok.Word)
			id, ok := wordID[w]
			if !ok {
				id = int32(len(wordText))
				wordID[w] = id
				wordText = append(wordText, w)
			}
			ids[i] = id
		}
		sents[si] = ids
		spans[si] = continuousSpans(t, labelID, &labelText)
		for _, sp := range spans[si] {
			if n := int(sp.end - sp.start); n >= minW && n <= maxW {
				size += n
			}
		}
	}
	tr := &trie{next: make(map[uint64]int32, size), key: make([]int32, 1, size+1)}
	tr.key[0] = -1
	var keyNodes []int32 // trie node of each key
	for si, ids := range sents {
		for _, sp := range spans[si] {
			if n := int(sp.end - sp.start); n < minW || n > maxW {
				continue
			}
			node := int32(0)
			for _, w := range ids[sp.start:sp.end] {
				k := uint64(node)<<32 | uint64(uint32(w))
				child, ok := tr.next[k]
				if !ok {
					child = int32(len(tr.key))
					tr.next[k] = child
					tr.key = append(tr.key, -1)
				}
				node = child
			}
			if tr.key[node] < 0 {
				tr.key[node] = int32(len(keyNodes))
				keyNodes = append(keyNodes, node)
			}
		}
	}
	occs := make([][]occ, len(keyNodes))
	for si, ids := range sents {
		for start := range ids {
			node := int32(0)
			for j := start; j < len(ids) && j-start < maxW; j++ {
				var ok bool
				if node, ok = tr.child(node, ids[j]); !ok {
					break
				}
				k := tr.key[node]
				if k < 0 || j+1-start < minW {
					continue
				}
				label := int32(0)
				if sp := findSpan(spans[si], int32(start), int32(j+1)); sp != nil {
					label = sp.label
				}
				occs[k] = append(occs[k], occ{int32(si), int32(start), int32(j + 1), label})
			}
		}
	}
	var groups []Group
	for _, list := range occs {
		if len(list) < 2 || !mixed(list) {
			continue
		}
		first := list[0]
		g := Group{Words: make([]string, 0, first.end-first.start)}
		for _, w := range sents[first.sent][first.start:first.end] {
			g.Words = append(g.Words, wordText[w])
		}
		byLabel := make(map[int32]int)
		for _, o := range list {
			a, ok := byLabel[o.label]
			if !ok {
				a = len(g.Analyses)
				byLabel[o.label] = a
				g.Analyses = append(g.Analyses, Analysis{Label: labelText[o.label]})
			}
			oc := Occurrence{Sentence: int(o.sent), ID: c.Sentences[o.sent].ID(), Start: int(o.start), End: int(o.end)}
			if sp := findSpan(spans[o.sent], o.start, o.end); sp != nil {
				oc.Nodes = slices.Clone(sp.nodes)
			}
			g.Analyses[a].Occurrences = append(g.Analyses[a].Occurrences, oc)
		}
		slices.SortFunc(g.Analyses, func(a, b Analysis) int {
			if c := cmp.Compare(len(b.Occurrences), len(a.Occurrences)); c != 0 {
				return c
			}
			return cmp.Compare(a.Label, b.Label)
		})
		groups = append(groups, g)
	}
	slices.SortFunc(groups, func(a, b Group) int {
		if c := cmp.Compare(b.Count(), a.Count()); c != 0 {
			return c
		}
		return slices.Compare(a.Words, b.Words)
	})
	return groups
}

// mixed reports whether the occurrences have more than one analysis.
func mixed(list []occ) bool {
	for _, o := range list[1:] {
		if o.label != list[0].label {
			return true
		}
	}
	return false
}

// continuousSpans returns the spans of t covered by continuous
// constituents, sorted by start and end, with the nodes over each span top
// first and their chain label (interned in labelID and labelText).
func continuousSpans(t *tree.Tree, labelID map[string]int32, labelText *[]string) []spanInfo {
	type nodeSpan struct {
		start, end int32
		depth      int
		node       int
	}
	var ns []nodeSpan
	for i, y := range t.Yields() {
		if len(y) == 0 || y[len(y)-1]-y[0] != len(y)-1 {
			continue // empty or discontinuous
		}
		depth := 0
		for p := t.Nodes[i].Parent; p != tree.Root && depth <= len(t.Nodes); p = t.Nodes[p].Parent {
			depth++
		}
		ns = append(ns, nodeSpan{int32(y[0]), int32(y[len(y)-1] + 1), depth, i})
	}
	slices.SortFunc(ns, func(a, b nodeSpan) int {
		if c := cmp.Compare(a.start, b.start); c != 0 {
			return c
		}
		if c := cmp.Compare(a.end, b.end); c != 0 {
			return c
		}
		return cmp.Compare(a.depth, b.depth)
	})
	var out []spanInfo
	for k := 0; k < len(ns); {
		j := k
		var labels []string
		var nodes []int
		for j < len(ns) && ns[j].start == ns[k].start && ns[j].end == ns[k].end {
			labels = append(labels, t.Nodes[ns[j].node].Label)
			nodes = append(nodes, ns[j].node)
			j++
		}
		label := strings.Join(labels, tree.ChainSep)
		id, ok := labelID[label]
		if !ok {
			id = int32(len(*labelText))
			labelID[label] = id
			*labelText = append(*labelText, label)
		}
		out = append(out, spanInfo{start: ns[k].start, end: ns[k].end, label: id, nodes: nodes})
		k = j
	}
	return out
}

// findSpan returns the span [start,end) of a sorted list, or nil.
func findSpan(spans []spanInfo, start, end int32) *spanInfo {
	i, ok := slices.BinarySearchFunc(spans, [2]int32{start, end}, func(s spanInfo, k [2]int32) int {
		if c := cmp.Compare(s.start, k[0]); c != 0 {
			return c
		}
		return cmp.Compare(s.end, k[1])
	})
	if !ok {
		return nil
	}
	return &spans[i]
}
