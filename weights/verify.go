package weights

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

// Verify checks the weights file at path as Read does, except the values:
// the header, and the SHA-256 of the data section against its
// tensors_sha256, reading the data as a stream (memory: the header only).
// It returns the File of ReadMeta (Params nil); a mismatch is an *Error of
// kind ErrChecksum.
func Verify(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("weights: %w", err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, fmt.Errorf("weights: %w", err)
	}
	f, e := readMeta(fh, st.Size())
	if e == nil {
		h := sha256.New()
		if _, err := io.Copy(h, fh); err != nil {
			e = problem(ErrTruncated, err, "reading the data: %v", err)
		} else if got := hex.EncodeToString(h.Sum(nil)); got != f.TensorsSHA256 {
			e = problem(ErrChecksum, nil, "corrupt: tensors checksum mismatch (tensors_sha256 is %s, the data section hashes to %s)", f.TensorsSHA256, got)
		}
	}
	if e != nil {
		e.Name = path
		return nil, e
	}
	return f, nil
}
