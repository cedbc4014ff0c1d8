package treebank

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// tigerSpillAt is how many bytes of TIGER-XML body the writer keeps in
// memory before it moves them to a temporary file (see tigerSpill).
const tigerSpillAt = 32 << 20

// tigerSpill keeps the body of a TIGER-XML document that has outgrown
// memory in a temporary file until the header can be written. On systems
// that allow it the file is removed as soon as it is made, so that nothing
// is left behind when the process is stopped; elsewhere it is removed by
// finish. Where no temporary file can be made (in a browser) the body stays
// in memory.
type tigerSpill struct {
	file    *os.File
	size    int64 // bytes written to file
	removed bool  // file's name is already gone
	failed  error // the file could not be made or written: memory only
}

// take moves body to the file and reports whether it did; on failure the
// file keeps what it held before and the body stays in memory from then on.
func (s *tigerSpill) take(body []byte) bool {
	if s.failed != nil {
		return false
	}
	if s.file == nil {
		f, err := os.CreateTemp("", "discspan-tigerxml-*.xml")
		if err != nil {
			s.failed = err
			return false
		}
		s.file = f
		s.removed = os.Remove(f.Name()) == nil
	}
	n, err := s.file.Write(body)
	if err != nil {
		if n > 0 {
			// Drop the part of body that got in, so the file ends at a
			// sentence's end and the whole body stays in memory.
			if terr := s.file.Truncate(s.size); terr != nil {
				err = errors.Join(err, terr)
			}
			if _, serr := s.file.Seek(s.size, io.SeekStart); serr != nil {
				err = errors.Join(err, serr)
			}
		}
		s.failed = err
		return false
	}
	s.size += int64(n)
	return true
}

// copyTo writes what the file holds to w, then closes and removes it.
func (s *tigerSpill) copyTo(w io.Writer) error {
	if s.file == nil {
		return nil
	}
	defer s.close()
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("treebank: write TigerXML: reading back the temporary file: %w", err)
	}
	if _, err := io.CopyN(w, s.file, s.size); err != nil {
		return fmt.Errorf("treebank: write TigerXML: copying the temporary file: %w", err)
	}
	return nil
}

// close closes and removes the file, if any.
func (s *tigerSpill) close() {
	if s.file == nil {
		return
	}
	s.file.Close()
	if !s.removed {
		os.Remove(s.file.Name())
	}
	s.file = nil
}
