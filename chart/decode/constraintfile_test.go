package decode

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestReadConstraintFile(t *testing.T) {
	labels := []string{"S", "NP", "VP"}
	cases := []struct {
		name, json, wantErr string
		want                *Constraints
	}{
		{"ok", `{"require":[{"label":"NP","blocks":[[0,2]]}],"forbid":[{"blocks":[[1,3],[5,6]]}]}`, "",
			&Constraints{Require: []Required{{Label: 1, Blocks: [][2]int{{0, 2}}}},
				Forbid: []Forbidden{{Blocks: [][2]int{{1, 3}, {5, 6}}}}, Labels: labels}},
		{"empty", `{}`, "", &Constraints{Labels: labels}},
		{"only forbid", `{"forbid":[{"blocks":[[0,1]]}]}`, "",
			&Constraints{Forbid: []Forbidden{{Blocks: [][2]int{{0, 1}}}}, Labels: labels}},
		{"syntax", "{\n\"require\": [{\"label\": \"NP\",}]}", "c.json:2:", nil},
		{"type", "{\"require\": [{\"label\": 3}]}", "c.json:1:", nil},
		{"unknown field", `{"require":[],"extra":1}`, "unknown field", nil},
		{"unknown label", `{"require":[{"label":"PP","blocks":[[0,1]]}]}`, `c.json: require[0]: unknown label "PP"`, nil},
		{"no label", `{"require":[{"blocks":[[0,1]]}]}`, `require[0]: no "label"`, nil},
		{"three numbers", `{"forbid":[{"blocks":[[0,1,2]]}]}`, "forbid[0]: block 0 has 3 numbers", nil},
		{"trailing data", `{} {}`, "data after", nil},
		{"a stray bracket", `{}]`, "data after", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ReadConstraintFile(strings.NewReader(c.json), "c.json", labels)
			switch {
			case c.wantErr == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, c.wantErr)
			case c.want != nil && !reflect.DeepEqual(got, c.want):
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

// FuzzReadConstraintFile: the reader never panics, and whatever it accepts
// either validates and decodes or is rejected with an error.
func FuzzReadConstraintFile(f *testing.F) {
	f.Add([]byte(`{"require":[{"label":"NP","blocks":[[0,2]]}],"forbid":[{"blocks":[[1,3],[4,5]]}]}`))
	f.Add([]byte(`{"require":[{"label":"S","blocks":[[0,1],[2,5]]},{"label":"NP","blocks":[[1,2],[3,4]]}]}`))
	s := RandomScores(3, 5, 3)
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ReadConstraintFile(bytes.NewReader(data), "fuzz.json", []string{"S", "NP", "VP"})
		if err != nil {
			return
		}
		for _, v := range []Variant{Continuous, N4, N6} {
			d, err := DecodeConstrained(v, s, c, nil)
			if (err == nil) == (d == nil) {
				t.Fatalf("%s: derivation %v with error %v", v, d, err)
			}
		}
	})
}
