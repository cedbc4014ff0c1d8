package treebank

import (
	"bufio"
	"fmt"
	"os"

	"github.com/discspan/discspan/chart/tree"
)

// ReadFile reads a treebank file; the format comes from the extension (see
// FormatOf). Errors are as for ReadAll; parse errors name the file.
func ReadFile(path string) ([]*tree.Tree, error) {
	f, err := OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var trees []*tree.Tree
	err = f.Each(func(t *tree.Tree) error {
		trees = append(trees, t)
		return nil
	})
	return trees, err
}

// File is a treebank file open for reading one tree at a time (see
// Reader); Close it when done.
type File struct {
	*Reader
	file *os.File
}

// OpenFile opens a treebank file for reading; the format comes from the
// extension (see FormatOf).
func OpenFile(path string) (*File, error) {
	f, err := FormatOf(path)
	if err != nil {
		return nil, err
	}
	return OpenFileFormat(path, f)
}

// OpenFileFormat opens a treebank file of format f for reading, whatever
// its extension.
func OpenFileFormat(path string, f Format) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("treebank: %w", err)
	}
	return &File{Reader: NewReader(bufio.NewReaderSize(fh, 1<<16), path, f), file: fh}, nil
}

// Close closes the file.
func (f *File) Close() error { return f.file.Close() }
