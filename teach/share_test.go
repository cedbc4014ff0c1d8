package teach

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
)

func exportBytes(t *testing.T, tr *tree.Tree) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := treebank.WriteExport(&b, []*tree.Tree{tr}, 4); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Real trees (with lemmas, morphology, edges and secondary edges) survive a
// link unchanged, and links stay short enough for a URL.
func TestShareRoundTrip(t *testing.T) {
	p := filepath.Join("..", "..", "shared", "data", "alpino-cdb", "dev.export")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("treebank data not found at %s (it lives in ../shared/data beside the repository): %v", p, err)
	}
	trees, err := treebank.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	longest := 0
	for _, tr := range trees[:200] {
		link, err := EncodeTree(tr)
		if err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(link, "/+=#? ") {
			t.Fatalf("link %q is not fragment-safe", link)
		}
		back, err := DecodeTree(link)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(exportBytes(t, back), exportBytes(t, tr)) {
			t.Fatalf("sentence %s changed:\n%s\n%s", tr.ID, exportBytes(t, tr), exportBytes(t, back))
		}
		if tr.Len() <= 40 {
			longest = max(longest, len(link))
		}
	}
	if longest > 4000 {
		t.Errorf("a link of a sentence of at most 40 words takes %d characters", longest)
	}
	t.Logf("longest link for <= 40 words: %d characters", longest)
}

func TestShareDamaged(t *testing.T) {
	ex := Gallery()[0]
	tr, err := ex.Tree()
	if err != nil {
		t.Fatal(err)
	}
	good, err := EncodeTree(tr)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, link, want string }{
		{"empty", "", "not a tree link"},
		{"other version", "t9." + good[3:], "not a tree link"},
		{"not base64", "t1.@@@", "damaged"},
		{"truncated", good[:len(good)/2], "damaged"},
		{"not deflate", "t1." + "aGVsbG8", "damaged"},
	}
	for _, tc := range tests {
		_, err := DecodeTree(tc.link)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}
