package weights

import (
	"crypto/sha256"
	"errors"
	"testing"
)

// Read hashes the data section with DataSHA256 (the browser's worker puts
// crypto.subtle's there): its sum is the one checked.
func TestDataSHA256(t *testing.T) {
	f := newFixture(t)
	defer func(h func([]byte) [32]byte) { DataSHA256 = h }(DataSHA256)
	tests := []struct {
		name    string
		hash    func([]byte) [32]byte
		wantErr error
	}{
		{"the same sum", sha256.Sum256, nil},
		{"another sum", func(b []byte) [32]byte { s := sha256.Sum256(b); s[0]++; return s }, ErrChecksum},
	}
	for _, tc := range tests {
		calls := 0
		DataSHA256 = func(b []byte) [32]byte { calls++; return tc.hash(b) }
		_, err := Read(f.data[Int8], "x")
		if !errors.Is(err, tc.wantErr) || calls != 1 {
			t.Errorf("%s: %v after %d calls, want %v after 1", tc.name, err, calls, tc.wantErr)
		}
	}
}
