package parser

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/scorer"
)

// Need is the memory, in bytes, that parsing one sentence may take at most
// in the parsing thread (see Parser.NeedBytes).
type Need struct {
	// Scoring is the network's: its outputs and work memory on the CPU
	// (network.Config.InferenceBytes, every model of an ensemble), or the
	// outputs only for a backend that works elsewhere (a GPU).
	Scoring int64
	// Calibrated is that of the scores with the variant's offsets added
	// (Calibration.Shifted; 0 without offsets).
	Calibrated int64
	// Chart is the decoder's (decode.ChartBytes).
	Chart int64
}

// Total returns the sum of the parts.
func (n Need) Total() int64 { return n.Scoring + n.Calibrated + n.Chart }

// NeedBytes returns the memory that parsing a sentence of n words with
// variant v may take at most. It allocates nothing.
func (p *Parser) NeedBytes(n int, v decode.Variant) Need {
	labels := len(p.Vocab.Labels)
	scores := decode.ScoreBytes(n, labels)
	out := scores + 4*int64(n)*int64(len(p.Vocab.Tags))
	need := Need{Scoring: out, Chart: decode.ChartBytes(v, n, labels)}
	if p.Scorer != nil {
		need.Scoring = scorer.InferenceBytes(p.Scorer, n, out)
	} else if p.Model != nil {
		need.Scoring = p.Model.Config().InferenceBytes(n)
	}
	if o := p.Calibration[v.String()]; o != (Offsets{}) {
		need.Calibrated = scores / 3 * 2 // new disc and gap scores
	}
	return need
}

// CheckFits reports (wrapping decode.ErrTooLong) a sentence of n words
// that variant v could not parse within the memory budget
// (p.Decode.MaxBytes): its span scores or its chart alone over the budget
// (decode.Options.Fits), or everything parsing it takes (NeedBytes: the
// network, the calibrated scores and the chart). With no word limit
// (MaxWords negative) it is what keeps a huge sentence from exhausting
// memory. It allocates nothing.
func (p *Parser) CheckFits(n int, v decode.Variant) error {
	if err := p.Decode.Fits(v, n, len(p.Vocab.Labels)); err != nil {
		return err
	}
	budget := p.Decode.MaxBytes
	if budget <= 0 {
		budget = decode.DefaultMaxBytes
	}
	if need := p.NeedBytes(n, v); need.Total() > budget {
		return fmt.Errorf("%s: %d words need %d MiB to parse (network %d MiB, calibrated scores %d MiB, chart %d MiB), budget %d MiB: %w",
			v, n, mib(need.Total()), mib(need.Scoring), mib(need.Calibrated), mib(need.Chart), budget>>20, decode.ErrTooLong)
	}
	return nil
}

// mib returns b in MiB, rounded up.
func mib(b int64) int64 { return (b + 1<<20 - 1) >> 20 }

// LongestFitting returns the length of the longest sentence that variant v
// parses within the memory budget (CheckFits), at most limit words.
func (p *Parser) LongestFitting(v decode.Variant, limit int) int {
	lo, hi := 0, limit // lo fits (0 words always do); find the largest
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if p.CheckFits(mid, v) == nil {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// CheckWords reports why a sentence cannot be parsed: more words than
// p.MaxWords (a *tree.LengthError; the network's and the decoder's memory
// grow with the square of the length and faster), a word that is not
// valid UTF-8 (the vocabulary reads words as characters), or one that no
// treebank file could hold as a word: empty, or holding a NUL byte (the
// tokenizer never makes such a word). White space is left to the writers:
// TIGER-XML holds a word "New York", export and discbracket refuse it. It allocates nothing;
// callers check before scoring.
func (p *Parser) CheckWords(words []string) error {
	if err := tree.CheckLength(len(words), p.MaxWords); err != nil {
		return err
	}
	for i, w := range words {
		switch {
		case w == "":
			return fmt.Errorf("word %d is empty", i+1)
		case !utf8.ValidString(w):
			return fmt.Errorf("word %d (%q) is not valid UTF-8", i+1, w)
		case strings.IndexByte(w, 0) >= 0:
			return fmt.Errorf("word %d (%q) holds a NUL byte, which no treebank file holds", i+1, w)
		}
	}
	return nil
}
