package weights

import (
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/tokenize"
)

// LanguageKey is the metadata entry (in Meta.Extra) that names the
// language of a model's training data ("Dutch").
const LanguageKey = "language"

// Language returns the language of a model's training data: its
// LanguageKey entry, else the language whose function words its
// vocabulary knows (tokenize.GuessLanguage), else "".
func Language(m Meta) string {
	if l := m.Extra[LanguageKey]; l != "" {
		return l
	}
	if m.Vocab == nil {
		return ""
	}
	return tokenize.GuessLanguage(Knows(m.Vocab))
}

// Knows returns whether the vocabulary has a word (lower-cased and in the
// spelling the network reads, network.Vocab.Spelling: "(" is known to a
// model that knows -LRB-), for tokenize.Unknown.
func Knows(v *network.Vocab) func(string) bool {
	return func(w string) bool { return v.WordID(v.Spelling(w)) != network.UnkWord }
}
