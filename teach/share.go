package teach

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"io"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
)

// shareVersion prefixes every shared tree, so that the encoding can change
// without breaking old links.
const shareVersion = "t1."

// maxSharedBytes bounds a decoded link: a long sentence's export lines are
// a few kilobytes.
const maxSharedBytes = 1 << 20

// EncodeTree encodes a tree for a URL fragment: its export (v4) lines,
// deflated and base64url-encoded, behind a version prefix. Everything the
// export format holds survives: words, lemmas, tags, morphology, labels,
// edges and secondary edges.
func EncodeTree(t *tree.Tree) (string, error) {
	var raw bytes.Buffer
	if err := treebank.WriteExport(&raw, []*tree.Tree{t}, 4); err != nil {
		return "", fmt.Errorf("teach: encode %q: %w", t.ID, err)
	}
	var z bytes.Buffer
	fw, err := flate.NewWriter(&z, flate.BestCompression)
	if err != nil {
		return "", err
	}
	if _, err := fw.Write(raw.Bytes()); err != nil {
		return "", err
	}
	if err := fw.Close(); err != nil {
		return "", err
	}
	return shareVersion + base64.RawURLEncoding.EncodeToString(z.Bytes()), nil
}

// DecodeTree reverses EncodeTree, saying what is wrong with a damaged link.
func DecodeTree(s string) (*tree.Tree, error) {
	if len(s) < len(shareVersion) || s[:len(shareVersion)] != shareVersion {
		return nil, errors.New("teach: shared tree: not a tree link (unknown version prefix)")
	}
	z, err := base64.RawURLEncoding.DecodeString(s[len(shareVersion):])
	if err != nil {
		return nil, fmt.Errorf("teach: shared tree: damaged link: %w", err)
	}
	raw, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(z)), maxSharedBytes+1))
	if err != nil {
		return nil, fmt.Errorf("teach: shared tree: damaged link: %w", err)
	}
	if len(raw) > maxSharedBytes {
		return nil, fmt.Errorf("teach: shared tree: more than %d bytes", maxSharedBytes)
	}
	trees, err := treebank.ReadExport(bytes.NewReader(raw), "shared tree")
	if err != nil {
		return nil, fmt.Errorf("teach: %w", err)
	}
	if len(trees) != 1 {
		return nil, fmt.Errorf("teach: shared tree: the link holds %d trees, want 1", len(trees))
	}
	return trees[0], nil
}
