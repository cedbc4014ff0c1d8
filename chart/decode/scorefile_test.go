package decode

import (
	"bytes"
	"math"
	"runtime"
	"strings"
	"testing"
)

func TestReadScoreFile(t *testing.T) {
	cases := []struct {
		name, json, wantErr string
	}{
		{"ok", `{"words":["a"],"labels":["X"],"cont":[[[1]]],"disc":[[[0]]],"gap":[[[0]]]}`, ""},
		{"empty sentence", `{"words":[],"labels":[],"cont":[],"disc":[],"gap":[]}`, ""},
		{"syntax", "{\n\"words\": [\"a\",]}", "f.json:2:"},
		{"type", `{"words":"a"}`, "f.json:1:"},
		{"unknown field", `{"words":[],"labels":[],"cont":[],"disc":[],"gap":[],"extra":1}`, "unknown field"},
		{"no labels", `{"words":["a"],"labels":[],"cont":[[[]]],"disc":[[[]]],"gap":[[[]]]}`, `"labels" is empty`},
		{"empty chain part", `{"words":["a"],"labels":["A//B"],"cont":[[[1]]],"disc":[[[0]]],"gap":[[[0]]]}`, `label "A//B": an empty part of a unary chain`},
		{"chain ending in the separator", `{"words":["a"],"labels":["A/"],"cont":[[[1]]],"disc":[[[0]]],"gap":[[[0]]]}`, "an empty part"},
		{"label with a space", `{"words":["a"],"labels":["N P"],"cont":[[[1]]],"disc":[[[0]]],"gap":[[[0]]]}`, `label "N P": white space`},
		{"label with NUL", `{"words":["a"],"labels":["N\u0000P"],"cont":[[[1]]],"disc":[[[0]]],"gap":[[[0]]]}`, "a control character"},
		{"unary chain", `{"words":["a"],"labels":["S/VP"],"cont":[[[1]]],"disc":[[[0]]],"gap":[[[0]]]}`, ""},
		{"duplicate label", `{"words":["a"],"labels":["X","X"],"cont":[[[1,1]]],"disc":[[[0,0]]],"gap":[[[0,0]]]}`, "appears twice"},
		{"short row", `{"words":["a","b"],"labels":["X"],"cont":[[[1],[1]],[[1]]],"disc":[[[0],[0]],[[0],[0]]],"gap":[[[0],[0]],[[0],[0]]]}`, "cont[1] has 1 entries"},
		{"short cell", `{"words":["a"],"labels":["X"],"cont":[[[]]],"disc":[[[0]]],"gap":[[[0]]]}`, "cont[0][0] has 0 scores"},
		// A null, JavaScript's NaN, used to be read as 0; the word "null"
		// and an escaped quote before it are no null.
		{"null score", "{\"words\":[\"a\"],\"labels\":[\"X\"],\"cont\":[[[1]]],\"disc\":[[[0]]],\n\"gap\":[[[null]]]}", "f.json:2:10: null where a score"},
		{"the word null", `{"words":["null","\"null"],"labels":["X"],"cont":[[[1],[1]],[[0],[1]]],"disc":[[[0],[0]],[[0],[0]]],"gap":[[[0],[0]],[[0],[0]]]}`, ""},
		{"null file", `null`, "f.json:1:1: null"},
		{"empty object", `{}`, `no "words" list`},
		{"no gap", `{"words":["a"],"labels":["X"],"cont":[[[1]]],"disc":[[[0]]]}`, `no "gap" list`},
		{"data after the object", `{"words":[],"labels":[],"cont":[],"disc":[],"gap":[]} {"x":1}`, "data after the score object"},
		{"a stray brace after the object", "{\"words\":[],\"labels\":[],\"cont\":[],\"disc\":[],\"gap\":[]}}", "data after the score object"},
		{"white space after the object", "{\"words\":[],\"labels\":[],\"cont\":[],\"disc\":[],\"gap\":[]}\n\t \n", ""},
		// Finite but beyond float32, or summing to an infinity.
		{"score beyond float32", `{"words":["a"],"labels":["X"],"cont":[[[1e39]]],"disc":[[[0]]],"gap":[[[0]]]}`, "cont[0][0][0] is 1e+39, beyond ±1.27e+30"},
		{"score beyond MaxScore", `{"words":["a","b"],"labels":["X"],"cont":[[[1],[3e38]],[[0],[1]]],"disc":[[[0],[0]],[[0],[0]]],"gap":[[[0],[0]],[[0],[0]]]}`, "cont[0][1][0] is 3e+38"},
		// Lists longer than their place allows are refused before they are
		// decoded; commas and brackets in words are no list's.
		{"long row", `{"words":["a"],"labels":["X"],"cont":[[[1],[2]]],"disc":[[[0]]],"gap":[[[0]]]}`, "f.json:1:43: a row with more entries than words (the file has 1 words and 1 labels)"},
		{"long entry", `{"words":["a"],"labels":["X"],"cont":[[[1]]],"disc":[[[0,1]]],"gap":[[[0]]]}`, "f.json:1:57: an entry with more scores than labels"},
		{"long tensor", `{"words":["a"],"labels":["X"],"cont":[[[1]],[[1]]],"disc":[[[0]]],"gap":[[[0]]]}`, "a tensor with more rows than words"},
		{"a list in an unknown field", `{"words":["a"],"labels":["X"],"model":{"layers":[1,2,3]},"cont":[[[1]]],"disc":[[[0]]],"gap":[[[0]]]}`, `unknown field "model"`},
		{"an unknown field's list", `{"words":["a"],"labels":["X"],"extra":[1,2,3],"cont":[[[1]]],"disc":[[[0]]],"gap":[[[0]]]}`, `unknown field "extra"`},
		{"commas and brackets in words", `{"words":[",[,", "],]"],"labels":["X"],"cont":[[[1],[1]],[[0],[1]]],"disc":[[[0],[0]],[[0],[0]]],"gap":[[[0],[0]],[[0],[0]]]}`, ""},
		// Words a treebank cannot hold are refused before decoding; a byte
		// order mark is taken.
		{"empty word", `{"words":[""],"labels":["X"],"cont":[[[1]]],"disc":[[[0]]],"gap":[[[0]]]}`, "f.json: word 1 (\"\"): empty"},
		{"word with a space", `{"words":["a","b c"],"labels":["X"],"cont":[[[1],[1]],[[0],[1]]],"disc":[[[0],[0]],[[0],[0]]],"gap":[[[0],[0]],[[0],[0]]]}`, "f.json: word 2 (\"b c\"): white space"},
		{"word with NUL", `{"words":["a\u0000"],"labels":["X"],"cont":[[[1]]],"disc":[[[0]]],"gap":[[[0]]]}`, "a control character"},
		{"byte order mark", "\xEF\xBB\xBF" + `{"words":["a"],"labels":["X"],"cont":[[[1]]],"disc":[[[0]]],"gap":[[[0]]]}`, ""},
		{"large score below the diagonal is ignored", `{"words":["a","b"],"labels":["X"],"cont":[[[1],[1]],[[1e39],[1]]],"disc":[[[0],[0]],[[0],[0]]],"gap":[[[0],[0]],[[0],[0]]]}`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := ReadScoreFile(strings.NewReader(c.json), "f.json")
			switch {
			case c.wantErr == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, c.wantErr)
			}
		})
	}
}

// A file of many empty lists (2 bytes of text, 24 of slice header each)
// is refused before its lists are decoded: reading it allocates less than
// four times its size (decoded, it took 35 times).
func TestReadScoreFileManyShortLists(t *testing.T) {
	data := []byte(`{"words":["a"],"labels":["X"],"cont":[[` + strings.Repeat("[],", 1<<20) + `[]]],"disc":[[[1]]],"gap":[[[1]]]}`)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, err := ReadScoreFile(bytes.NewReader(data), "f.json")
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "a row with more entries than words") {
		t.Fatalf("error %v, want a row too long", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 4*uint64(len(data)) {
		t.Errorf("reading %d bytes allocated %d bytes", len(data), got)
	}
	// A label that is no string does not turn the check off.
	bad := bytes.Replace(data, []byte(`"labels":["X"]`), []byte(`"labels":["X",1]`), 1)
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, err = ReadScoreFile(bytes.NewReader(bad), "f.json")
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "a row with more entries than words") {
		t.Fatalf("with a label that is a number: error %v, want a row too long", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 4*uint64(len(bad)) {
		t.Errorf("with a label that is a number: reading %d bytes allocated %d bytes", len(bad), got)
	}
}

// FuzzReadScoreFile: the score-file reader never panics, and whatever it
// accepts decodes without error under the cheap variants.
func FuzzReadScoreFile(f *testing.F) {
	f.Add([]byte(`{"words":["a","b"],"labels":["X"],"cont":[[[1],[2]],[[0],[3]]],"disc":[[[0],[0]],[[0],[0]]],"gap":[[[0],[0]],[[0],[0]]]}`))
	f.Add([]byte(`{"words":[],"labels":[],"cont":[],"disc":[],"gap":[]}`))
	f.Add([]byte(`{"words":["a"],"labels":["X","Y"],"cont":[[[1e39,-1]]],"disc":[[[0,0]]],"gap":[[[0,0]]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, s, err := ReadScoreFile(bytes.NewReader(data), "fuzz.json")
		if err != nil || s.N > 12 {
			return
		}
		if d, err := Decode(N6, s, nil); err == nil && (math.IsInf(float64(d.Score), 0) || math.IsNaN(float64(d.Score))) {
			t.Fatalf("an accepted file decodes to score %v", d.Score)
		}
		for _, v := range []Variant{Continuous, N3, N4} {
			if _, err := Decode(v, s, nil); err != nil && !strings.Contains(err.Error(), "is ") {
				t.Fatalf("%s: accepted file fails to decode: %v", v, err)
			}
		}
	})
}

// TestScoreFileShapeFirst: a small file claiming many words, without the
// scores to match, is refused before anything of the claimed size is
// allocated (8,000 words and 4 labels: 3 GiB of scores).
func TestScoreFileShapeFirst(t *testing.T) {
	f := &ScoreFile{Words: make([]string, 8000), Labels: []string{"A", "B", "C", "D"}}
	for i := range f.Words {
		f.Words[i] = "w"
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := f.Scores()
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), `"cont" has 0 rows`) {
		t.Errorf("error %v; want one saying cont has no rows", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
		t.Errorf("refusing the file allocated %d MiB", got>>20)
	}
}

// TestScoresCheckSizes: sizes whose products would overflow, and words
// without labels, are refused by Check (and so by Decode) instead of
// passing the budget as 0 bytes and panicking in the decoder.
func TestScoresCheckSizes(t *testing.T) {
	tests := []struct {
		name string
		s    *Scores
		want string
	}{
		{"huge, no labels", &Scores{N: 1<<32 - 1}, "at most"},
		{"words, no labels", &Scores{N: 5}, "no labels"},
		{"too many labels", &Scores{N: 1, L: MaxScoreLabels + 1}, "at most"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, v := range []Variant{Continuous, N4, N6} {
				_, err := Decode(v, tc.s, &Options{MaxBytes: 1 << 20})
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%v: error %v; want one containing %q", v, err, tc.want)
				}
			}
		})
	}
}
