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
	f, err := FormatOf(path)
	if err != nil {
		return nil, err
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("treebank: %w", err)
	}
	defer fh.Close()
	return ReadAll(bufio.NewReaderSize(fh, 1<<16), path, f)
}

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
	err := atomicfile.Write(path, func(w io.Writer) error {
		tw := NewWriter(w, f)
		if o.PTBParens {
			tw.PTBParens()
		}
		return writeAll(tw, trees)
	})
	if err != nil {
		return fmt.Errorf("treebank: %w", err)
	}
	return nil
}
