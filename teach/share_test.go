package teach

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/crc32"
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
		{"newer version", "t9." + good[3:], "newer version"},
		{"no version", "x2." + good[3:], "not a tree link"},
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

// encodeV1 writes a link as version 1 did: the deflated lines alone.
func encodeV1(t *testing.T, tr *tree.Tree) string {
	t.Helper()
	var z bytes.Buffer
	fw, _ := flate.NewWriter(&z, flate.BestCompression)
	fw.Write(exportBytes(t, tr))
	fw.Close()
	return "t1." + base64.RawURLEncoding.EncodeToString(z.Bytes())
}

// TestShareOnTheWay: a link changed in any one character opens the tree it
// was made of or is refused as damaged, never another tree; white space
// inside it and marks after it (a mail client's wrapping, a chat's full
// stop) do not matter; links of version 1 still open.
func TestShareOnTheWay(t *testing.T) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	for _, ex := range Gallery()[:2] {
		tr, err := ex.Tree()
		if err != nil {
			t.Fatal(err)
		}
		want := exportBytes(t, tr)
		link, err := EncodeTree(tr)
		if err != nil {
			t.Fatal(err)
		}
		opened, refused := 0, 0
		for i := len(shareVersion); i < len(link); i++ {
			for _, c := range alphabet {
				if byte(c) == link[i] {
					continue
				}
				got, err := DecodeTree(link[:i] + string(c) + link[i+1:])
				switch {
				case err != nil:
					refused++
				case !bytes.Equal(exportBytes(t, got), want):
					t.Fatalf("%s: character %d changed to %q opens another tree:\n%s", ex.ID, i, c, exportBytes(t, got))
				default:
					opened++ // base64's last character carries unused bits
				}
			}
		}
		t.Logf("%s: %d one-character changes refused, %d open the same tree", ex.ID, refused, opened)
		for _, variant := range []string{
			link + ".", link + ").", link[:20] + "\n " + link[20:], link[:20] + "\r\n\t" + link[20:] + "!",
			encodeV1(t, tr),
		} {
			got, err := DecodeTree(variant)
			if err != nil || !bytes.Equal(exportBytes(t, got), want) {
				t.Errorf("%s: %q: %v", ex.ID, variant, err)
			}
		}
	}
}

// TestShareLimits: a link that expands to more export lines than a link
// holds, or to a tree of more than MaxSharedWords words, and a link longer
// than any tree's, are refused before the tree is built.
func TestShareLimits(t *testing.T) {
	line := func(n int, parent int) string { return fmt.Sprintf("w%d\t--\tN\t--\t--\t%d\n", n, parent) }
	var many strings.Builder
	many.WriteString("#BOS 1\n")
	for i := range MaxSharedWords + 1 {
		many.WriteString(line(i, 500))
	}
	many.WriteString("#500\t--\tX\t--\t--\t0\n#EOS 1\n")
	var huge strings.Builder
	huge.WriteString("#BOS 1\n")
	for huge.Len() <= maxSharedBytes {
		huge.WriteString(line(0, 500))
	}
	huge.WriteString("#500\t--\tX\t--\t--\t0\n#EOS 1\n")
	deflated := func(raw string) string {
		var z bytes.Buffer
		z.Write(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE([]byte(raw))))
		fw, _ := flate.NewWriter(&z, flate.BestCompression)
		fw.Write([]byte(raw))
		fw.Close()
		return shareVersion + base64.RawURLEncoding.EncodeToString(z.Bytes())
	}
	for _, tc := range []struct{ name, link, want string }{
		{"too many words", deflated(many.String()), "more than a shared tree may have"},
		{"too many bytes", deflated(huge.String()), "more than"},
		{"too long a link", shareVersion + strings.Repeat("A", maxLinkChars+1), "characters, more than"},
	} {
		if _, err := DecodeTree(tc.link); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s (%d characters): %v, want %q", tc.name, len(tc.link), err, tc.want)
		}
	}
}

// TestShareRefusesLongTrees: a tree of more than MaxSharedWords words is
// not encoded (its link would not open).
func TestShareRefusesLongTrees(t *testing.T) {
	tr := &tree.Tree{ID: "long", Nodes: []tree.Node{{Label: "X", Parent: tree.Root}}}
	for i := range MaxSharedWords + 1 {
		tr.Tokens = append(tr.Tokens, tree.Token{Word: fmt.Sprint("w", i), Tag: "N", Parent: 0})
	}
	if _, err := EncodeTree(tr); err == nil || !strings.Contains(err.Error(), "more than a shared tree may have") {
		t.Errorf("a tree of %d words: %v", tr.Len(), err)
	}
}
