package weights

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
)

// Verify checks the weights file at path as Read does, except the values:
// the header, and the SHA-256 of the data section against its
// tensors_sha256, reading the data as a stream (memory: the header only).
// It returns the File of ReadMeta (Params nil); a mismatch is an *Error of
// kind ErrChecksum.
func Verify(path string) (*File, error) {
	return readMetaFile(path, func(f *File, data io.Reader) *Error {
		h := sha256.New()
		if _, err := io.Copy(h, data); err != nil {
			return problem(ErrTruncated, err, "reading the data: %v", err)
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != f.TensorsSHA256 {
			return checksumError(f.TensorsSHA256, got)
		}
		return nil
	})
}

// checksumError is the ErrChecksum of a data section that hashes to got
// instead of its tensors_sha256 want.
func checksumError(want, got string) *Error {
	return problem(ErrChecksum, nil, "corrupt: tensors checksum mismatch (tensors_sha256 is %s, the data section hashes to %s)", want, got)
}
