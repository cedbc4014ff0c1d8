package train

import (
	"io"

	"github.com/discspan/discspan/internal/atomicfile"
)

// writeFileAtomic replaces path with what write produces, never leaving a
// half-written file (see atomicfile.Write).
func writeFileAtomic(path string, write func(w io.Writer) error) error {
	return atomicfile.Write(path, write)
}

// writeBytes returns a write function for writeFileAtomic.
func writeBytes(b []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	}
}
