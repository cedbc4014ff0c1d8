package parser

import (
	"fmt"

	"github.com/discspan/discspan/weights"
)

// FromFile returns a parser for a loaded weights file (its parameters, shared
// not copied, and its vocabulary).
func FromFile(f *weights.File) (*Parser, error) {
	m, err := f.Model()
	if err != nil {
		return nil, fmt.Errorf("parser: %w", err)
	}
	return New(m, f.Meta.Vocab)
}

// Load reads a weights file (see weights.ReadFile) and returns its parser.
func Load(path string) (*Parser, error) {
	f, err := weights.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("parser: %w", err)
	}
	return FromFile(f)
}
