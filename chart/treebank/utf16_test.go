package treebank

import "testing"

func TestLooksUTF16(t *testing.T) {
	for _, tc := range []struct {
		data string
		want bool
	}{
		{"\xff\xfe(\x00", true},
		{"\xfe\xff\x00(", true},
		{"(\x00R\x00", true},
		{"\x00(\x00R", true},
		{"(ROOT", false},
		{"\xef\xbb\xbf#BOS", false},
		{"(", false},
		{"", false},
	} {
		if got := LooksUTF16([]byte(tc.data)); got != tc.want {
			t.Errorf("LooksUTF16(%q) = %v, want %v", tc.data, got, tc.want)
		}
	}
}
