package weights

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestVerify: a file whose data section is damaged (one byte, anywhere in
// it) fails Verify with ErrChecksum, while ReadMeta, which reads the header
// only, accepts it; the undamaged file passes both, in every dtype.
func TestVerify(t *testing.T) {
	fx := newFixture(t)
	for _, dt := range allDTypes {
		data := fx.data[dt]
		start := 8 + headerLen(data)
		for _, off := range []int{start, (start + len(data)) / 2, len(data) - 1} {
			dir := t.TempDir()
			good, bad := filepath.Join(dir, "good.safetensors"), filepath.Join(dir, "bad.safetensors")
			damaged := append([]byte(nil), data...)
			damaged[off] ^= 0x01
			if err := os.WriteFile(good, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(bad, damaged, 0o644); err != nil {
				t.Fatal(err)
			}
			if f, err := Verify(good); err != nil || f.TensorsSHA256 == "" {
				t.Errorf("%v: undamaged file: %v", dt, err)
			}
			if _, err := ReadMeta(bad); err != nil {
				t.Errorf("%v byte %d: ReadMeta: %v (the header is intact)", dt, off, err)
			}
			if _, err := Verify(bad); !errors.Is(err, ErrChecksum) {
				t.Errorf("%v byte %d flipped: Verify = %v, want ErrChecksum", dt, off, err)
			}
		}
	}
}
