package eval

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/discspan/discspan/chart/tree"
)

// Summary holds corpus-level scores for a set of sentences. Scores are
// percentages (0..100), unrounded; a score whose denominator is zero (disco-dop
// prints "nan" or "0DIV!") is 0 here, and the counts tell the cases apart.
type Summary struct {
	Sentences       int `json:"sentences"`
	LongestSentence int `json:"longest_sentence"`

	Recall    float64 `json:"recall"`
	Precision float64 `json:"precision"`
	F1        float64 `json:"f1"`

	DiscRecall    float64 `json:"disc_recall"`
	DiscPrecision float64 `json:"disc_precision"`
	DiscF1        float64 `json:"disc_f1"`

	Exact       float64 `json:"exact"`
	POSAccuracy float64 `json:"pos_accuracy"`

	GoldBrackets    int `json:"gold_brackets"`
	CandBrackets    int `json:"cand_brackets"`
	MatchedBrackets int `json:"matched_brackets"`

	GoldDiscBrackets    int `json:"gold_disc_brackets"`
	CandDiscBrackets    int `json:"cand_disc_brackets"`
	MatchedDiscBrackets int `json:"matched_disc_brackets"`

	ExactMatches int `json:"exact_matches"`
	POSCorrect   int `json:"pos_correct"`
	POSTotal     int `json:"pos_total"`
}

// SentenceResult is the evaluation of one sentence pair.
type SentenceResult struct {
	// Index is the 0-based position of the pair in the treebanks.
	Index int `json:"index"`
	// ID is the gold sentence id (the candidate's if the gold has none).
	ID string `json:"id"`
	// Length is the sentence length used for the cutoff (see the package
	// documentation); Words is the number of tokens left after deletion.
	Length int `json:"length"`
	Words  int `json:"words"`
	// InCutoff reports whether the sentence counts in Result.Le40.
	InCutoff bool `json:"in_cutoff"`

	Matched int `json:"matched"`
	Gold    int `json:"gold"`
	Cand    int `json:"cand"`

	DiscMatched int `json:"disc_matched"`
	DiscGold    int `json:"disc_gold"`
	DiscCand    int `json:"disc_cand"`

	// Recall, Precision and F1 of this sentence, percentages; 0 when
	// undefined.
	Recall    float64 `json:"recall"`
	Precision float64 `json:"precision"`
	F1        float64 `json:"f1"`

	Exact      bool `json:"exact"`
	POSCorrect int  `json:"pos_correct"`

	// GoldUnmatched and CandUnmatched are indices into the Nodes of the gold
	// and candidate trees of the counted brackets that found no partner
	// (for highlighting). Among identical brackets the first nodes are
	// taken as matched.
	GoldUnmatched []int `json:"gold_unmatched,omitempty"`
	CandUnmatched []int `json:"cand_unmatched,omitempty"`
}

// Result is the outcome of an evaluation.
type Result struct {
	// Params is the name of the parameter set; CutoffLen its CUTOFF_LEN.
	Params    string `json:"params"`
	CutoffLen int    `json:"cutoff_len"`
	// All covers every sentence, Le40 the sentences of at most CutoffLen
	// words.
	All  Summary `json:"all"`
	Le40 Summary `json:"le40"`
	// PerSentence has one entry per sentence pair, in order.
	PerSentence []SentenceResult `json:"per_sentence"`
	// Labels scores each label over every sentence, most frequent in gold
	// first.
	Labels []LabelScore `json:"labels"`
}

// Bracket is one counted constituent of a transformed tree.
type Bracket struct {
	// Label after function-tag cutting and EQ_LABEL mapping ("" when
	// unlabelled evaluation).
	Label string `json:"label"`
	// Positions are the terminal positions after deletion and renumbering,
	// sorted.
	Positions []int `json:"positions"`
	// Node is the index of the constituent in the tree's Nodes.
	Node int `json:"node"`
}

// Disc reports whether the bracket is discontinuous (more than one block of
// adjacent positions, judged after deletion).
func (b Bracket) Disc() bool { return tree.BlockDegree(b.Positions) > 1 }

func (b Bracket) key() string {
	var sb strings.Builder
	sb.Grow(len(b.Label) + 4*len(b.Positions) + 1)
	sb.WriteString(b.Label)
	sb.WriteByte(0)
	var buf [20]byte
	for i, p := range b.Positions {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.Write(strconv.AppendInt(buf[:0], int64(p), 10))
	}
	return sb.String()
}

// prepared is a tree after the parameter-file transformation.
type prepared struct {
	words    []string // remaining words
	tags     []string // remaining tags (normalized, before EQ_LABEL)
	brackets []Bracket
}

// NormalizeTag returns a POS tag as disco-dop's readers hand it to the
// evaluator: '(' and ')' written '[' and ']' (the export reader does this),
// then the function tag cut off unless p.KeepFunctionTags.
func NormalizeTag(tag string, p Params) string {
	if strings.ContainsAny(tag, "()") {
		tag = strings.NewReplacer("(", "[", ")", "]").Replace(tag)
	}
	if !p.KeepFunctionTags {
		tag = cutFunction(tag)
	}
	return tag
}

// NormalizeLabel returns a phrase label as it is compared: function tag cut
// off (unless p.KeepFunctionTags), then mapped to its EQ_LABEL
// representative.
func NormalizeLabel(label string, p Params) string {
	if !p.KeepFunctionTags {
		label = cutFunction(label)
	}
	if r, ok := p.EqLabel[label]; ok {
		label = r
	}
	return label
}

// cutFunction strips a function tag as disco-dop's readers do with
// functions='remove': first at the first '-' if that is not at position 0,
// then at the first '=' if that is not at position 0. So NP-SBJ, NP=2 and
// NP-SBJ=2 become NP while -NONE- and -LRB- stay.
func cutFunction(label string) string {
	for _, c := range []byte{'-', '='} {
		if x := strings.IndexByte(label, c); x > 0 {
			label = label[:x]
		}
	}
	return label
}

// goldLength is the sentence length used for the cutoff: the number of gold
// tokens whose (normalized) tag is not in DELETE_LABEL_FOR_LENGTH.
func goldLength(g *tree.Tree, p Params) int {
	n := 0
	for _, tok := range g.Tokens {
		if !p.DeleteLabelForLength[NormalizeTag(tok.Tag, p)] {
			n++
		}
	}
	return n
}

// goldToken is what decides the deletion of a token: the tag, word and
// attachment of the gold token at its position.
type goldToken struct {
	tag, word string
	root      bool // attached directly to the root
}

// transform applies the parameter-file transformation to t. del[i] describes
// the gold token that decides whether token i of t is deleted (for the gold
// tree its own tokens; for a candidate the aligned gold tokens).
func transform(t *tree.Tree, del []goldToken, p Params) prepared {
	n := len(t.Tokens)
	newIdx := make([]int, n)
	var pr prepared
	for i, tok := range t.Tokens {
		d := del[i]
		if p.DeleteLabel[d.tag] || p.DeleteWord[d.word] || (p.DeleteRootPreterms && d.root) {
			newIdx[i] = -1
			continue
		}
		newIdx[i] = len(pr.words)
		pr.words = append(pr.words, tok.Word)
		pr.tags = append(pr.tags, NormalizeTag(tok.Tag, p))
	}
	for ni, y := range t.Yields() {
		label := NormalizeLabel(t.Nodes[ni].Label, p)
		if p.DeleteLabel[label] {
			continue // replaced by its children
		}
		var pos []int
		for _, i := range y {
			if newIdx[i] >= 0 {
				pos = append(pos, newIdx[i])
			}
		}
		if len(pos) == 0 {
			continue // left empty: removed
		}
		if !p.Labeled {
			label = ""
		}
		pr.brackets = append(pr.brackets, Bracket{Label: label, Positions: pos, Node: ni})
	}
	return pr
}

// Brackets returns the brackets that t contributes when evaluated as a gold
// tree under p (deletions decided by its own tags and words). It returns an
// error if t is malformed.
func Brackets(t *tree.Tree, p Params) ([]Bracket, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	return transform(t, goldInfo(t, p), p).brackets, nil
}

func goldInfo(g *tree.Tree, p Params) []goldToken {
	info := make([]goldToken, len(g.Tokens))
	for i, tok := range g.Tokens {
		info[i] = goldToken{NormalizeTag(tok.Tag, p), tok.Word, tok.Parent == tree.Root}
	}
	return info
}

// unescapeParens decodes the bracket escapes of tree files: -LRB- and #LRB#
// for '(', -RRB- and #RRB# for ')'.
func unescapeParens(w string) string {
	if !strings.Contains(w, "RB-") && !strings.Contains(w, "RB#") {
		return w
	}
	return parenUnescaper.Replace(w)
}

var parenUnescaper = strings.NewReplacer("-LRB-", "(", "-RRB-", ")", "#LRB#", "(", "#RRB#", ")")

func eqWord(w string, p Params) string {
	if r, ok := p.EqWord[w]; ok {
		return r
	}
	return w
}

// sameWord reports whether a gold and a candidate word are the same word:
// equal after EQ_WORD mapping (disco-dop's test), or equal once bracket
// escapes are decoded (so that "topturners(sters)" from an export file
// matches "topturners-LRB-sters-RRB-" from a discbracket file).
func sameWord(g, c string, p Params) bool {
	if g == c || eqWord(g, p) == eqWord(c, p) {
		return true
	}
	return eqWord(unescapeParens(g), p) == eqWord(unescapeParens(c), p)
}

// align maps candidate tokens onto gold tokens. With equal lengths this is the
// identity; a shorter candidate is aligned greedily on identical words, as
// disco-dop's alignsent does (here modulo sameWord). It returns, per
// candidate token, the index of its gold token, or an error.
func align(g, c *tree.Tree, p Params) ([]int, error) {
	m := make([]int, len(c.Tokens))
	if len(c.Tokens) == len(g.Tokens) {
		for i := range m {
			m[i] = i
		}
		return m, nil
	}
	if len(c.Tokens) > len(g.Tokens) {
		return nil, fmt.Errorf("candidate has %d tokens, gold %d", len(c.Tokens), len(g.Tokens))
	}
	j := 0
	for i, tok := range c.Tokens {
		for j < len(g.Tokens) && !sameWord(g.Tokens[j].Word, tok.Word, p) {
			j++
		}
		if j == len(g.Tokens) {
			return nil, fmt.Errorf("candidate has %d tokens, gold %d, and candidate token %d %q has no counterpart in the gold sentence",
				len(c.Tokens), len(g.Tokens), i, tok.Word)
		}
		m[i] = j
		j++
	}
	return m, nil
}

// Evaluator accumulates the evaluation of sentence pairs one at a time.
type Evaluator struct {
	p        Params
	all, le  accumulator
	perSent  []SentenceResult
	labels   labelCounts // every sentence's brackets by label
	nextIndx int
}

type accumulator struct{ s Summary }

// NewEvaluator returns an Evaluator for parameters p.
func NewEvaluator(p Params) *Evaluator { return &Evaluator{p: p, labels: labelCounts{}} }

func sentName(i int, g, c *tree.Tree) string {
	id := g.ID
	if id == "" {
		id = c.ID
	}
	if id == "" {
		return fmt.Sprintf("sentence %d", i+1)
	}
	return fmt.Sprintf("sentence %d (id %s)", i+1, id)
}

// Add evaluates one gold/candidate pair and adds it to the totals. On error
// (malformed tree, or words that do not match after deletion) nothing is
// added; the error names the sentence by its 1-based number and id.
func (e *Evaluator) Add(gold, cand *tree.Tree) (SentenceResult, error) {
	idx := e.nextIndx
	name := sentName(idx, gold, cand)
	if err := gold.Validate(); err != nil {
		return SentenceResult{}, fmt.Errorf("eval: %s: gold tree: %v", name, err)
	}
	if err := cand.Validate(); err != nil {
		return SentenceResult{}, fmt.Errorf("eval: %s: candidate tree: %v", name, err)
	}
	m, err := align(gold, cand, e.p)
	if err != nil {
		return SentenceResult{}, fmt.Errorf("eval: %s: %v\n gold: %s\n cand: %s", name, err,
			strings.Join(gold.Words(), " "), strings.Join(cand.Words(), " "))
	}
	p := e.p
	ginfo := goldInfo(gold, p)
	cinfo := make([]goldToken, len(cand.Tokens))
	for i, j := range m {
		cinfo[i] = ginfo[j]
	}
	gp := transform(gold, ginfo, p)
	cp := transform(cand, cinfo, p)
	if len(gp.words) != len(cp.words) {
		return SentenceResult{}, fmt.Errorf("eval: %s: sentence length mismatch after deleting punctuation (gold %d words, candidate %d)\n gold: %s\n cand: %s",
			name, len(gp.words), len(cp.words), strings.Join(gp.words, " "), strings.Join(cp.words, " "))
	}
	for i := range gp.words {
		if !sameWord(gp.words[i], cp.words[i], p) {
			return SentenceResult{}, fmt.Errorf("eval: %s: candidate and gold words differ at word %d (after deleting punctuation): gold %q, candidate %q\n gold: %s\n cand: %s",
				name, i, gp.words[i], cp.words[i], strings.Join(gp.words, " "), strings.Join(cp.words, " "))
		}
	}
	id := gold.ID
	if id == "" {
		id = cand.ID
	}
	r := SentenceResult{
		Index:  idx,
		ID:     id,
		Length: goldLength(gold, p),
		Words:  len(gp.words),
		Gold:   len(gp.brackets),
		Cand:   len(cp.brackets),
	}
	r.InCutoff = p.CutoffLen > 0 && r.Length <= p.CutoffLen
	// Multiset intersection; identical brackets are paired in node order.
	goldNodes := make(map[string][]int, len(gp.brackets))
	for _, b := range gp.brackets {
		e.labels.get(b.Label).Gold++
		if b.Disc() {
			r.DiscGold++
		}
		k := b.key()
		goldNodes[k] = append(goldNodes[k], b.Node)
	}
	for _, b := range cp.brackets {
		e.labels.get(b.Label).Cand++
		disc := b.Disc()
		if disc {
			r.DiscCand++
		}
		k := b.key()
		if ns := goldNodes[k]; len(ns) > 0 {
			goldNodes[k] = ns[1:]
			e.labels.get(b.Label).Matched++
			r.Matched++
			if disc {
				r.DiscMatched++
			}
			continue
		}
		r.CandUnmatched = append(r.CandUnmatched, b.Node)
	}
	for _, ns := range goldNodes {
		r.GoldUnmatched = append(r.GoldUnmatched, ns...)
	}
	sort.Ints(r.GoldUnmatched)
	sort.Ints(r.CandUnmatched)
	r.Exact = r.Matched == r.Gold && r.Matched == r.Cand
	for i := range gp.tags {
		if gp.tags[i] == cp.tags[i] {
			r.POSCorrect++
		}
	}
	r.Recall = pct(r.Matched, r.Gold)
	r.Precision = pct(r.Matched, r.Cand)
	r.F1 = f1(r.Matched, r.Gold, r.Cand)

	e.all.add(r, p)
	if r.InCutoff {
		e.le.add(r, p)
	}
	e.perSent = append(e.perSent, r)
	e.nextIndx++
	return r, nil
}

func (a *accumulator) add(r SentenceResult, p Params) {
	s := &a.s
	if r.Length > s.LongestSentence {
		s.LongestSentence = r.Length
	}
	s.GoldDiscBrackets += r.DiscGold
	s.CandDiscBrackets += r.DiscCand
	s.MatchedDiscBrackets += r.DiscMatched
	s.POSCorrect += r.POSCorrect
	s.POSTotal += r.Words
	if p.DiscOnly {
		// disco-dop --disconly: only sentences with a discontinuous
		// bracket count, and exact match compares the discontinuous
		// brackets only.
		s.GoldBrackets += r.DiscGold
		s.CandBrackets += r.DiscCand
		s.MatchedBrackets += r.DiscMatched
		if r.DiscGold > 0 || r.DiscCand > 0 {
			s.Sentences++
			if r.DiscMatched == r.DiscGold && r.DiscMatched == r.DiscCand {
				s.ExactMatches++
			}
		}
	} else {
		s.GoldBrackets += r.Gold
		s.CandBrackets += r.Cand
		s.MatchedBrackets += r.Matched
		s.Sentences++
		if r.Exact {
			s.ExactMatches++
		}
	}
}

func (a *accumulator) summary() Summary {
	s := a.s
	s.Recall = pct(s.MatchedBrackets, s.GoldBrackets)
	s.Precision = pct(s.MatchedBrackets, s.CandBrackets)
	s.F1 = f1(s.MatchedBrackets, s.GoldBrackets, s.CandBrackets)
	s.DiscRecall = pct(s.MatchedDiscBrackets, s.GoldDiscBrackets)
	s.DiscPrecision = pct(s.MatchedDiscBrackets, s.CandDiscBrackets)
	s.DiscF1 = f1(s.MatchedDiscBrackets, s.GoldDiscBrackets, s.CandDiscBrackets)
	s.Exact = pct(s.ExactMatches, s.Sentences)
	s.POSAccuracy = pct(s.POSCorrect, s.POSTotal)
	return s
}

// Summary returns the scores of all pairs added so far, all sentences
// (Result's All), in constant time: a caller that shows the running score
// after each pair does not copy the per-sentence results every time.
func (e *Evaluator) Summary() Summary { return e.all.summary() }

// Result returns the scores of all pairs added so far.
func (e *Evaluator) Result() *Result {
	return &Result{
		Params:      e.p.Name,
		CutoffLen:   e.p.CutoffLen,
		All:         e.all.summary(),
		Le40:        e.le.summary(),
		PerSentence: append([]SentenceResult(nil), e.perSent...),
		Labels:      e.labels.scores(),
	}
}

// Evaluate scores the candidate treebank against the gold treebank; the trees
// are paired by position. It fails on the first pair whose words do not match
// (after deletion) or whose tree is malformed, naming the sentence.
func Evaluate(gold, cand []*tree.Tree, p Params) (*Result, error) {
	if len(gold) != len(cand) {
		return nil, fmt.Errorf("eval: gold has %d sentences, candidate %d", len(gold), len(cand))
	}
	if len(gold) == 0 {
		return nil, fmt.Errorf("eval: no sentences")
	}
	e := NewEvaluator(p)
	for i := range gold {
		if gold[i] == nil || cand[i] == nil {
			return nil, fmt.Errorf("eval: sentence %d: nil tree", i+1)
		}
		if _, err := e.Add(gold[i], cand[i]); err != nil {
			return nil, err
		}
	}
	return e.Result(), nil
}

func pct(num, den int) float64 {
	if den == 0 {
		return 0
	}
	return 100 * float64(num) / float64(den)
}

// f1 is the harmonic mean of precision and recall, 2m/(g+c); 0 when either is
// zero or undefined (disco-dop prints nan).
func f1(m, g, c int) float64 {
	if m == 0 || g == 0 || c == 0 {
		return 0
	}
	return 100 * 2 * float64(m) / float64(g+c)
}
