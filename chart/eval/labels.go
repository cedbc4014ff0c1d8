package eval

import (
	"fmt"
	"sort"
	"strings"
)

// LabelScore is the evaluation of one constituent label over every
// sentence (disco-dop's category statistics): brackets of that label in
// gold and candidate, the matched ones, and recall, precision and F1 in
// percent (0 when undefined).
type LabelScore struct {
	Label     string  `json:"label"`
	Gold      int     `json:"gold"`
	Cand      int     `json:"cand"`
	Matched   int     `json:"matched"`
	Recall    float64 `json:"recall"`
	Precision float64 `json:"precision"`
	F1        float64 `json:"f1"`
}

// labelCounts accumulates LabelScore counts by label.
type labelCounts map[string]*LabelScore

func (c labelCounts) get(label string) *LabelScore {
	s := c[label]
	if s == nil {
		s = &LabelScore{Label: label}
		c[label] = s
	}
	return s
}

// scores returns the labels' scores, most frequent in gold first (then by
// name). Cost O(L log L).
func (c labelCounts) scores() []LabelScore {
	out := make([]LabelScore, 0, len(c))
	for _, s := range c {
		v := *s
		v.Recall, v.Precision, v.F1 = pct(v.Matched, v.Gold), pct(v.Matched, v.Cand), f1(v.Matched, v.Gold, v.Cand)
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Gold != out[j].Gold {
			return out[i].Gold > out[j].Gold
		}
		return out[i].Label < out[j].Label
	})
	return out
}

// FormatLabels returns the per-label table of r (all sentences): label,
// gold and candidate brackets, matched, recall, precision and F1.
func FormatLabels(r *Result) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-12s %6s %6s %7s %7s %7s %7s\n", "label", "gold", "cand", "matched", "recall", "prec.", "F1")
	for _, s := range r.Labels {
		fmt.Fprintf(&sb, "%-12s %6d %6d %7d %7.2f %7.2f %7.2f\n", s.Label, s.Gold, s.Cand, s.Matched, s.Recall, s.Precision, s.F1)
	}
	return sb.String()
}
