package eval

import (
	"fmt"
	"strings"
)

// score formats a percentage num/den the way disco-dop prints it: "%6.2f",
// "   nan" for a precision, recall or F1 with a zero denominator.
func score(num, den int) string {
	if den == 0 {
		return "   nan"
	}
	return fmt.Sprintf("%6.2f", pct(num, den))
}

// ratio is like score but for exact match and POS accuracy, where disco-dop
// divides by zero and prints " 0DIV!".
func ratio(num, den int) string {
	if den == 0 {
		return " 0DIV!"
	}
	return fmt.Sprintf("%6.2f", pct(num, den))
}

func fscore(m, g, c int) string {
	if m == 0 || g == 0 || c == 0 {
		return "   nan"
	}
	return fmt.Sprintf("%6.2f", f1(m, g, c))
}

// center is Python's str.center, which disco-dop uses for the title line.
func center(s string, width int, fill byte) string {
	marg := width - len(s)
	if marg <= 0 {
		return s
	}
	left := marg/2 + (marg & width & 1)
	return strings.Repeat(string(fill), left) + s + strings.Repeat(string(fill), marg-left)
}

// FormatSummary renders the summary table that disco-dop's eval prints at the
// end: a single "Summary (ALL)" column when no sentence is longer than the
// cutoff (or the cutoff is disabled), otherwise two columns, "<= cutoff" and
// "ALL". Numbers are rounded to two decimals only here.
func FormatSummary(r *Result) string {
	a, l := r.All, r.Le40
	var b strings.Builder
	line := func(label, format string, args ...any) {
		fmt.Fprintf(&b, "%-27s"+format+"\n", append([]any{label}, args...)...)
	}
	if r.CutoffLen <= 0 || a.LongestSentence <= r.CutoffLen {
		b.WriteString(center(" Summary (ALL) ", 35, '_') + "\n")
		line("number of sentences:", "%6d", a.Sentences)
		line("longest sentence:", "%6d", a.LongestSentence)
		if a.GoldDiscBrackets > 0 || a.CandDiscBrackets > 0 {
			line("gold brackets (disc.):", "%6d (%d)", a.GoldBrackets, a.GoldDiscBrackets)
			line("cand. brackets (disc.):", "%6d (%d)", a.CandBrackets, a.CandDiscBrackets)
		} else {
			line("gold brackets:", "%6d", a.GoldBrackets)
			line("cand. brackets:", "%6d", a.CandBrackets)
		}
		line("labeled recall:", "%s", score(a.MatchedBrackets, a.GoldBrackets))
		line("labeled precision:", "%s", score(a.MatchedBrackets, a.CandBrackets))
		line("labeled f-measure:", "%s", fscore(a.MatchedBrackets, a.GoldBrackets, a.CandBrackets))
		line("exact match:", "%s", ratio(a.ExactMatches, a.Sentences))
		line("pos accuracy:", "%s", ratio(a.POSCorrect, a.POSTotal))
		return b.String()
	}
	fmt.Fprintf(&b, "%s <= %d ______ ALL\n", center(" Summary ", 27, '_'), r.CutoffLen)
	line("number of sentences:", "%6d     %6d", l.Sentences, a.Sentences)
	line("longest sentence:", "%6d     %6d", l.LongestSentence, a.LongestSentence)
	line("gold brackets:", "%6d     %6d", l.GoldBrackets, a.GoldBrackets)
	line("cand. brackets:", "%6d     %6d", l.CandBrackets, a.CandBrackets)
	if a.GoldDiscBrackets > 0 || a.CandDiscBrackets > 0 {
		line("disc. gold brackets:", "%6d     %6d", l.GoldDiscBrackets, a.GoldDiscBrackets)
		line("disc. cand. brackets:", "%6d     %6d", l.CandDiscBrackets, a.CandDiscBrackets)
	}
	line("labeled recall:", "%s     %s", score(l.MatchedBrackets, l.GoldBrackets), score(a.MatchedBrackets, a.GoldBrackets))
	line("labeled precision:", "%s     %s", score(l.MatchedBrackets, l.CandBrackets), score(a.MatchedBrackets, a.CandBrackets))
	line("labeled f-measure:", "%s     %s", fscore(l.MatchedBrackets, l.GoldBrackets, l.CandBrackets),
		fscore(a.MatchedBrackets, a.GoldBrackets, a.CandBrackets))
	line("exact match:", "%s     %s", ratio(l.ExactMatches, l.Sentences), ratio(a.ExactMatches, a.Sentences))
	line("pos accuracy:", "%s     %s", ratio(l.POSCorrect, l.POSTotal), ratio(a.POSCorrect, a.POSTotal))
	return b.String()
}

// FormatDiscSummary renders the discontinuous-only scores (what disco-dop
// prints for the same files with --disconly, less its sentence count and
// exact match, which depend on that mode) in the layout of FormatSummary's
// two-column table.
func FormatDiscSummary(r *Result) string {
	a, l := r.All, r.Le40
	var b strings.Builder
	line := func(label string, lv, av string) {
		fmt.Fprintf(&b, "%-27s%s     %s\n", label, lv, av)
	}
	fmt.Fprintf(&b, "%s <= %d ______ ALL\n", center(" Disc. only ", 27, '_'), r.CutoffLen)
	line("disc. gold brackets:", fmt.Sprintf("%6d", l.GoldDiscBrackets), fmt.Sprintf("%6d", a.GoldDiscBrackets))
	line("disc. cand. brackets:", fmt.Sprintf("%6d", l.CandDiscBrackets), fmt.Sprintf("%6d", a.CandDiscBrackets))
	line("disc. recall:", score(l.MatchedDiscBrackets, l.GoldDiscBrackets), score(a.MatchedDiscBrackets, a.GoldDiscBrackets))
	line("disc. precision:", score(l.MatchedDiscBrackets, l.CandDiscBrackets), score(a.MatchedDiscBrackets, a.CandDiscBrackets))
	line("disc. f-measure:", fscore(l.MatchedDiscBrackets, l.GoldDiscBrackets, l.CandDiscBrackets),
		fscore(a.MatchedDiscBrackets, a.GoldDiscBrackets, a.CandDiscBrackets))
	return b.String()
}

// FormatSentences renders disco-dop's per-sentence table (eval --verbose):
// id, length, recall, precision, matched/gold/candidate brackets, words,
// correct tags and POS accuracy.
func FormatSentences(r *Result) string {
	keylen := 0
	ids := make([]string, len(r.PerSentence))
	for i, s := range r.PerSentence {
		ids[i] = s.ID
		if ids[i] == "" {
			ids[i] = fmt.Sprint(s.Index + 1)
		}
		keylen = max(keylen, len(ids[i]))
	}
	header := []string{
		"",
		"   Sentence                 Matched   Brackets            Corr   POS",
		"  ID Length  Recall  Precis Bracket   gold   cand  Words  POS  Accur.",
	}
	var b strings.Builder
	pad := strings.Repeat(" ", max(keylen-4, 0))
	for _, h := range header {
		b.WriteString(pad + h + "\n")
	}
	b.WriteString(" " + strings.Repeat("_", max(keylen-5+len(header[2]), 0)) + "\n")
	for i, s := range r.PerSentence {
		fmt.Fprintf(&b, "%*s  %5d  %s  %s   %5d  %5d  %5d  %5d  %4d  %s \n",
			keylen, ids[i], s.Length, score(s.Matched, s.Gold), score(s.Matched, s.Cand),
			s.Matched, s.Gold, s.Cand, s.Words, s.POSCorrect, ratio(s.POSCorrect, s.Words))
	}
	return b.String()
}
