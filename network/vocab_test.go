package network

import (
	"encoding/json"
	"slices"
	"testing"
)

var vocabTrain = [][]string{
	{"De", "kat", "zit", "op", "de", "mat", "."},
	{"Een", "kat", "ziet", "de", "hond", "."},
}

func TestVocabBuild(t *testing.T) {
	v := NewVocab(vocabTrain, 2)
	// Words seen at least twice, lower-cased, most frequent first.
	if got, want := v.Words, []string{"<unk>", "<bos>", "<eos>", "de", ".", "kat"}; !slices.Equal(got, want) {
		t.Errorf("words %q, want %q", got, want)
	}
	if got, want := v.Chars[:numReservedChars], reservedChars; !slices.Equal(got, want) {
		t.Errorf("reserved chars %q, want %q", got, want)
	}
	cases := []struct {
		name string
		got  int
		want int
	}{
		{"upper-case word", v.WordID("DE"), 3},
		{"rare word", v.WordID("hond"), UnkWord},
		{"unseen word", v.WordID("fiets"), UnkWord},
		{"reserved string", v.WordID("<bos>"), UnkWord},
		{"known char keeps case", v.CharID('D'), slices.Index(v.Chars, "D")},
		{"unseen char", v.CharID('Q'), UnkChar},
	}
	for _, tc := range cases {
		if tc.got != tc.want || tc.want < 0 {
			t.Errorf("%s: id %d, want %d", tc.name, tc.got, tc.want)
		}
	}
}

func TestVocabEncode(t *testing.T) {
	v := NewVocab(vocabTrain, 2)
	in := v.Encode([]string{"De", "Kat", "fietst"})
	if want := []int{3, 5, UnkWord}; !slices.Equal(in.WordIDs, want) {
		t.Errorf("word ids %v, want %v", in.WordIDs, want)
	}
	if len(in.CharIDs) != 3 || len(in.CharIDs[2]) != 6 {
		t.Fatalf("char ids %v", in.CharIDs)
	}
	if in.CharIDs[1][0] != UnkChar { // no upper-case K in training
		t.Errorf("'K' -> %d, want UnkChar", in.CharIDs[1][0])
	}
	if in.CharIDs[0][0] != v.CharID('D') {
		t.Errorf("'D' -> %d, want %d", in.CharIDs[0][0], v.CharID('D'))
	}
}

func TestVocabLabelsTags(t *testing.T) {
	v := NewVocab(vocabTrain, 2)
	for i, l := range []string{"NP", "PP", "NP", "SMAIN/PPART"} {
		id := v.AddLabel(l)
		if want := []int{0, 1, 0, 2}[i]; id != want {
			t.Errorf("AddLabel(%q) = %d, want %d", l, id, want)
		}
	}
	v.AddTag("n")
	if id, ok := v.TagID("n"); !ok || id != 0 {
		t.Errorf("TagID(n) = %d, %v", id, ok)
	}
	if _, ok := v.LabelID("VP"); ok {
		t.Error("LabelID(VP) found")
	}
	c := Tiny().WithVocab(v)
	if c.WordVocab != 6 || c.Labels != 3 || c.Tags != 1 || c.CharVocab != len(v.Chars) {
		t.Errorf("WithVocab: %+v", c)
	}
}

func TestVocabJSON(t *testing.T) {
	v := NewVocab(vocabTrain, 1)
	v.AddLabel("NP")
	v.AddTag("lid")
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var w Vocab
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	sent := []string{"Een", "hond", "ziet", "Q"}
	if a, b := v.Encode(sent), w.Encode(sent); !slices.Equal(a.WordIDs, b.WordIDs) || !slices.EqualFunc(a.CharIDs, b.CharIDs, slices.Equal) {
		t.Errorf("decoded vocab encodes differently: %v vs %v", a, b)
	}
	if id, ok := w.LabelID("NP"); !ok || id != 0 {
		t.Error("label index not rebuilt")
	}

	bad := []struct {
		name string
		json string
	}{
		{"missing reserved words", `{"words":["a"],"chars":["<unk>","<bow>","<eow>","<bos>","<eos>"]}`},
		{"duplicate word", `{"words":["<unk>","<bos>","<eos>","a","a"],"chars":["<unk>","<bow>","<eow>","<bos>","<eos>"]}`},
		{"multi-character char", `{"words":["<unk>","<bos>","<eos>"],"chars":["<unk>","<bow>","<eow>","<bos>","<eos>","ab"]}`},
		{"duplicate label", `{"words":["<unk>","<bos>","<eos>"],"chars":["<unk>","<bow>","<eow>","<bos>","<eos>"],"labels":["NP","NP"]}`},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			var v Vocab
			if err := json.Unmarshal([]byte(tc.json), &v); err == nil {
				t.Error("no error")
			}
		})
	}
}
