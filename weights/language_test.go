package weights

import (
	"testing"

	"github.com/discspan/discspan/network"
)

func TestLanguage(t *testing.T) {
	def, err := ReadMetaBytes(DefaultBytes(), DefaultName)
	if err != nil {
		t.Fatal(err)
	}
	english := network.NewVocab([][]string{{"the", "of", "and", "to", "a", "in", "is", "that", "for", "it", "with", "as", "was", "on", "be", "by", "at", "from", "this", "are", "have", "has", "not", "but", "which"}}, 1)
	for _, tc := range []struct {
		name string
		meta Meta
		want string
	}{
		{"the shipped model", def.Meta, "Dutch"},
		{"an entry says", Meta{Vocab: english, Extra: map[string]string{LanguageKey: "Frisian"}}, "Frisian"},
		{"guessed from the vocabulary", Meta{Vocab: english}, "English"},
		{"no vocabulary", Meta{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Language(tc.meta); got != tc.want {
				t.Errorf("Language = %q, want %q", got, tc.want)
			}
		})
	}
	if !Knows(def.Meta.Vocab)("Het") || Knows(def.Meta.Vocab)("should") {
		t.Errorf("the shipped vocabulary: knows Het %v, should %v; want true, false", Knows(def.Meta.Vocab)("Het"), Knows(def.Meta.Vocab)("should"))
	}
}
