package teach

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strings"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
)

// A shared tree's link is a version prefix and base64url text. Version 2
// ("t2.") holds the CRC-32 (IEEE) of the tree's export lines, 4 bytes big
// endian, then those lines deflated: a link changed on its way (a
// character altered by hand or by a chat app) is refused as damaged
// instead of opening another tree. Version 1 ("t1.", the deflated lines
// alone) is still read.
const (
	shareVersion   = "t2."
	shareVersionV1 = "t1."
)

// maxSharedBytes bounds a decoded link: a sentence of 300 words (the most
// the app parses) takes about 25 KB of export lines. maxLinkChars bounds
// the link read before decoding it.
const (
	maxSharedBytes = 64 << 10
	maxLinkChars   = 2 * maxSharedBytes
)

// MaxSharedWords bounds the tree a link may hold (tree.DefaultMaxWords): a
// link to a longer one, which nobody shares, is refused before it is laid
// out.
const MaxSharedWords = tree.DefaultMaxWords

// ErrNewerLink is wrapped by DecodeTree's error for a link made by a newer
// version of the app, which this one cannot read.
var ErrNewerLink = errors.New("the link was made by a newer version of discspan: reload the page to get it")

// EncodeTree encodes a tree for a URL fragment: its export (v4) lines,
// deflated and base64url-encoded with their checksum, behind a version
// prefix. Everything the export format holds survives: words, lemmas,
// tags, morphology, labels, edges and secondary edges.
func EncodeTree(t *tree.Tree) (string, error) {
	var raw bytes.Buffer
	if err := treebank.WriteExport(&raw, []*tree.Tree{t}, 4); err != nil {
		return "", fmt.Errorf("teach: encode %q: %w", t.ID, err)
	}
	if n := t.Len(); n > MaxSharedWords {
		return "", fmt.Errorf("teach: encode %q: %d words, more than a shared tree may have (%d)", t.ID, n, MaxSharedWords)
	}
	if raw.Len() > maxSharedBytes {
		return "", fmt.Errorf("teach: encode %q: %d bytes of export lines, more than a link holds (%d)", t.ID, raw.Len(), maxSharedBytes)
	}
	var z bytes.Buffer
	z.Write(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(raw.Bytes())))
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

// cleanLink drops what a link picks up on its way that base64url never
// holds: white space inside it (a mail client's line wrapping) and marks
// after it (a chat's full stop, a closing bracket). It returns the version
// of the link's prefix ("t2." is 2, 0 when it has none) and the text after
// the prefix.
func cleanLink(s string) (version int, payload string) {
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)
	version = linkVersion(s)
	if version == 0 {
		return 0, ""
	}
	payload = s[strings.IndexByte(s, '.')+1:]
	return version, strings.TrimRightFunc(payload, func(r rune) bool { return !isBase64URL(r) })
}

func isBase64URL(r rune) bool {
	return 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '-' || r == '_'
}

// linkVersion returns the version of a link's prefix ("t2." is 2), or 0
// when it has none.
func linkVersion(s string) int {
	digits, ok := strings.CutPrefix(s, "t")
	if !ok {
		return 0
	}
	n := 0
	for i, r := range digits {
		switch {
		case r == '.' && i > 0:
			return n
		case r < '0' || r > '9' || i >= 6:
			return 0
		}
		n = n*10 + int(r-'0')
	}
	return 0
}

// DecodeTree reverses EncodeTree, saying what is wrong with a damaged link
// (an error wrapping ErrNewerLink for a link of a newer version).
func DecodeTree(s string) (*tree.Tree, error) {
	v, payload := cleanLink(s)
	switch {
	case v > 2:
		return nil, fmt.Errorf("teach: shared tree: %w", ErrNewerLink)
	case v == 0:
		return nil, errors.New("teach: shared tree: not a tree link (unknown version prefix)")
	case len(payload) > maxLinkChars:
		return nil, fmt.Errorf("teach: shared tree: the link has %d characters, more than a tree's link holds (%d)", len(payload), maxLinkChars)
	}
	z, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return nil, fmt.Errorf("teach: shared tree: damaged link: %w", err)
	}
	var sum uint32
	if v == 2 {
		if len(z) < 4 {
			return nil, errors.New("teach: shared tree: damaged link: too short")
		}
		sum, z = binary.BigEndian.Uint32(z), z[4:]
	}
	raw, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(z)), maxSharedBytes+1))
	if err != nil {
		return nil, fmt.Errorf("teach: shared tree: damaged link: %w", err)
	}
	if len(raw) > maxSharedBytes {
		return nil, fmt.Errorf("teach: shared tree: more than %d bytes", maxSharedBytes)
	}
	if v == 2 && crc32.ChecksumIEEE(raw) != sum {
		return nil, errors.New("teach: shared tree: damaged link: its checksum does not match (characters were changed)")
	}
	trees, err := treebank.ReadExport(bytes.NewReader(raw), "shared tree")
	if err != nil {
		return nil, fmt.Errorf("teach: %w", err)
	}
	if len(trees) != 1 {
		return nil, fmt.Errorf("teach: shared tree: the link holds %d trees, want 1", len(trees))
	}
	if n := trees[0].Len(); n > MaxSharedWords {
		return nil, fmt.Errorf("teach: shared tree: %d words, more than a shared tree may have (%d)", n, MaxSharedWords)
	}
	return trees[0], nil
}
