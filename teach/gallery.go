package teach

import (
	"context"
	"fmt"
	"strings"

	"github.com/discspan/discspan/chart/coverage"
	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
)

// Example is one classic discontinuity of the gallery.
type Example struct {
	ID          string
	Title       string
	Language    string
	Bracketed   string // the analysis in discbracket notation
	Explanation string
	// Smallest is the cheapest variant that builds the whole analysis.
	Smallest decode.Variant
}

// Tree parses the example's analysis.
func (e Example) Tree() (*tree.Tree, error) {
	trees, err := treebank.ReadAll(strings.NewReader(e.Bracketed+"\n"), "gallery/"+e.ID, treebank.Discbracket)
	if err != nil {
		return nil, fmt.Errorf("teach: %w", err)
	}
	if len(trees) != 1 {
		return nil, fmt.Errorf("teach: gallery/%s holds %d trees", e.ID, len(trees))
	}
	trees[0].ID = e.ID
	return trees[0], nil
}

// Gallery returns the classic discontinuities, each with a short
// explanation. The analyses are made here in the style of the treebanks
// of each language (the discontinuous Penn treebank for English, TIGER for
// German, Alpino for Dutch).
func Gallery() []Example {
	return []Example{
		{
			ID: "wh-question", Title: "Wh-movement", Language: "English",
			Bracketed: "(ROOT (SBARQ (SQ (VP (WHNP (WP 0=What)) (VB 3=do)) (MD 1=should) (NP (PRP 2=I))) (. 4=?)))",
			Explanation: "\"What\" is the object of \"do\" but stands at the front of the question. " +
				"Instead of a trace, the discontinuous treebank lets the VP own both words: " +
				"its yield is \"What … do\", with a gap where \"should I\" sits.",
			Smallest: decode.N3,
		},
		{
			ID: "extraposition", Title: "Extraposed relative clause", Language: "English",
			Bracketed: "(ROOT (S (NP (NP (DT 0=A) (NN 1=man)) (SBAR (WHNP (WP 4=who)) (S (VP (VBD 5=wore) (NP (DT 6=a) (NN 7=hat)))))) (VP (VBD 2=came) (PRT (RP 3=in))) (. 8=.)))",
			Explanation: "The relative clause \"who wore a hat\" describes \"a man\" but follows the verb. " +
				"The subject NP holds \"a man\" and the clause as daughters and becomes discontinuous around \"came in\".",
			Smallest: decode.N3,
		},
		{
			ID: "verb-second", Title: "Verb second", Language: "German",
			Bracketed: "(ROOT (S (VP (ADV 0=Gestern) (NP (ART 3=das) (NN 4=Buch)) (VVPP 5=gelesen)) (VAFIN 1=hat) (PPER 2=er)) ($. 6=.))",
			Explanation: "German main clauses put the finite verb (\"hat\") in second position. " +
				"The VP \"gestern das Buch gelesen\" is split: its first part fills the position " +
				"before the finite verb, the rest follows the subject.",
			Smallest: decode.N3,
		},
		{
			ID: "verb-cluster", Title: "Cross-serial verb cluster", Language: "Dutch",
			Bracketed: "(ROOT (CP (vg 0=dat) (SSUB (n 1=Jan) (n 2=Marie) (INF (NP (lid 3=de) (n 4=kinderen)) (INF (ww 7=zwemmen)) (ww 6=helpen)) (ww 5=zag))))",
			Explanation: "\"that Jan saw Marie help the children swim\": in Dutch the verbs line up at the end " +
				"in the same order as their objects, so each object–verb pair crosses the next one. " +
				"Alpino attaches \"Marie\", the object of \"zag\", under the clause and records that she is " +
				"the one who helps by co-indexing (a secondary edge, not a constituent). What remains " +
				"discontinuous is the infinitive phrase \"de kinderen … helpen zwemmen\", split by \"zag\": " +
				"one gap, which every discontinuous variant builds.",
			Smallest: decode.N3,
		},
		{
			ID: "dutch-nested", Title: "Nested infinitives in a verb cluster", Language: "Dutch",
			Bracketed: "(ROOT (CP (vg 0=dat) (SSUB (vnw 1=hij) (ww 4=heeft) (INF (INF (NP (lid 2=het) (n 3=boek)) (ww 6=lezen)) (ww 5=willen)))))",
			Explanation: "\"that he has wanted to read the book\": \"heeft\" stands in the cluster, between the object " +
				"and the infinitives. Both infinitive phrases (\"het boek … willen lezen\" and \"het boek … lezen\") " +
				"are discontinuous, and the second is a daughter of the first. The O(n^4) system cannot build that: " +
				"it makes a gap only between two continuous spans. The well-nested O(n^5) system can: " +
				"\"willen\" fills the right part of the inner phrase's gap, which shrinks to \"heeft\".",
			Smallest: decode.N5WN,
		},
		{
			ID: "german-cluster", Title: "Auxiliary before the verb cluster", Language: "German",
			Bracketed: "(ROOT (S (KOUS 0=weil) (PPER 1=er) (VP (VP (NP (ART 2=das) (NN 3=Buch)) (VVINF 5=lesen)) (VMINF 6=wollen)) (VAFIN 4=hat)) ($. 7=.))",
			Explanation: "\"because he has wanted to read the book\": with two infinitives, German puts the finite " +
				"auxiliary \"hat\" before the verb cluster instead of at the end (auxiliary flip). Both VPs (\"das Buch … lesen\" and " +
				"\"das Buch … lesen wollen\") now have \"hat\" in their gap, one VP a daughter of the other: as in the Dutch " +
				"cluster with nested infinitives, only systems that extend a gapped item (O(n^5) well-nested and up) build both.",
			Smallest: decode.N5WN,
		},
		{
			ID: "dutch-relative", Title: "Relative clause after the participle", Language: "Dutch",
			Bracketed: "(ROOT (SMAIN (vnw 0=Ik) (ww 1=heb) (PPART (NP (lid 2=het) (n 3=boek) (REL (vnw 5=dat) (SSUB (vnw 6=je) (vnw 7=me) (ww 8=gaf)))) (ww 4=gelezen))) (let 9=.))",
			Explanation: "\"I have read the book that you gave me\": the relative clause is extraposed past the " +
				"participle \"gelezen\", so the NP \"het boek … dat je me gaf\" has a one-word gap.",
			Smallest: decode.N3,
		},
	}
}

// GoldReplay replays variant v on scores derived from t's own constituents
// (coverage.GoldScores), so that the best derivation rebuilds as much of t
// as the variant can. Step labels index the returned constituents.
func GoldReplay(ctx context.Context, t *tree.Tree, v decode.Variant) (*Trace, []tree.Labelled, error) {
	cons, _ := tree.Targets(tree.MergeUnaries(t))
	if len(cons) == 0 {
		if len(t.Nodes) == 0 {
			return nil, nil, fmt.Errorf("teach: tree %q has no constituents, only words: there is nothing to replay", t.ID)
		}
		return nil, nil, fmt.Errorf("teach: tree %q has no constituent of block degree at most two", t.ID)
	}
	tr, err := Replay(ctx, v, coverage.GoldScores(t.Len(), cons))
	if err != nil {
		return nil, nil, err
	}
	return tr, cons, nil
}
