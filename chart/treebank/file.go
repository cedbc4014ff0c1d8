package treebank

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/internal/atomicfile"
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
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("treebank: %w", err)
	}
	return &File{Reader: NewReader(bufio.NewReaderSize(fh, 1<<16), path, f), file: fh}, nil
}

// Close closes the file.
func (f *File) Close() error { return f.file.Close() }

// WriteOptions adjust how WriteFileOptions writes.
type WriteOptions struct {
	// PTBParens writes discbracket parentheses as -LRB- and -RRB- (see
	// Writer.PTBParens).
	PTBParens bool
	// Format is the format written; Unknown, the zero value, takes it from
	// the file's extension (FormatOf), which a device such as /dev/stdout
	// does not have.
	Format Format
}

// WriteFile writes trees to a file whose format comes from the extension
// (see FormatOf; export files get version 4), with internal/atomicfile's
// Write: the file is replaced whole or not at all (a temporary file in the
// same folder renamed over it); a symbolic link is kept (the file it leads
// to is replaced); a named pipe, a device or a descriptor (/dev/stdout) is
// written in place.
func WriteFile(path string, trees []*tree.Tree) error {
	return WriteFileOptions(path, trees, WriteOptions{})
}

// WriteFileOptions is WriteFile with options.
func WriteFileOptions(path string, trees []*tree.Tree, o WriteOptions) error {
	return WriteFileFunc(path, o, func(write func(*tree.Tree) error) error {
		for _, t := range trees {
			if err := write(t); err != nil {
				return err
			}
		}
		return nil
	})
}

// WriteFileFunc is WriteFileOptions for trees that come one at a time
// (a treebank being converted, read as it is written): produce is called
// once and gives each tree to write, which returns the Writer's error. The
// file is replaced only when produce and every write succeed; an error of
// produce is returned as it is, others name the file.
func WriteFileFunc(path string, o WriteOptions, produce func(write func(*tree.Tree) error) error) error {
	f := o.Format
	if f == Unknown {
		var err error
		if f, err = FormatOf(path); err != nil {
			return err
		}
	}
	if f != Export && f != Discbracket && f != TigerXML {
		return fmt.Errorf("treebank: %s: cannot write format %v", path, f)
	}
	var produceErr error
	err := atomicfile.Write(path, func(w io.Writer) error {
		tw := NewWriter(w, f)
		defer tw.release()
		if o.PTBParens {
			tw.PTBParens()
		}
		var writeErr error
		produceErr = produce(func(t *tree.Tree) error {
			writeErr = tw.Write(t)
			return writeErr
		})
		if produceErr != nil && produceErr == writeErr {
			produceErr = nil
			return writeErr // the Writer's own error: it names the file
		}
		if produceErr != nil {
			return produceErr
		}
		return tw.Flush()
	})
	if produceErr != nil {
		return produceErr
	}
	if err != nil {
		return fmt.Errorf("treebank: %w", err)
	}
	return nil
}
