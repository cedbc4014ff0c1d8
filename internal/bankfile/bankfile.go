// Package bankfile writes treebank files whole or not at all: the trees go
// through chart/treebank's Writer into internal/atomicfile's Write, so a
// failed write (a tree the format cannot hold, a full disk, an error of
// the code producing the trees) leaves the file that was there unchanged.
//
// It lives outside chart/ because chart depends on nothing else of the
// project; reading files is chart/treebank's ReadFile and OpenFile.
package bankfile

import (
	"cmp"
	"fmt"
	"io"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/internal/atomicfile"
)

// Options adjust how a file is written; the zero value takes the format
// from the file's extension.
type Options struct {
	// PTBParens writes discbracket parentheses as -LRB- and -RRB- (see
	// treebank.Writer.PTBParens).
	PTBParens bool
	// Format is the format written; treebank.Unknown, the zero value,
	// takes it from the file's extension (treebank.FormatOf), which a
	// device such as /dev/stdout does not have.
	Format treebank.Format
}

// Write writes trees to path in the format its extension names (see
// treebank.FormatOf; export files get version 4) unless o names one. The
// file is replaced whole or not at all (a temporary file in the same
// folder renamed over it); a symbolic link is kept (the file it leads to
// is replaced); a named pipe, a device or a descriptor (/dev/stdout) is
// written in place.
func Write(path string, trees []*tree.Tree, o Options) error {
	return Stream(path, o, func(write func(*tree.Tree) error) error {
		for _, t := range trees {
			if err := write(t); err != nil {
				return err
			}
		}
		return nil
	})
}

// Stream is Write for trees that come one at a time (a treebank being
// converted, read as it is written): produce is called once and gives each
// tree to write, which returns the Writer's error. The file is replaced
// only when produce and every write succeed; an error of produce is
// returned as it is, others name the file.
func Stream(path string, o Options, produce func(write func(*tree.Tree) error) error) error {
	f := o.Format
	if f == treebank.Unknown {
		var err error
		if f, err = treebank.FormatOf(path); err != nil {
			return err
		}
	}
	if f != treebank.Export && f != treebank.Discbracket && f != treebank.TigerXML {
		return fmt.Errorf("treebank: %s: cannot write format %v", path, f)
	}
	o.Format = f
	var produceErr error
	err := atomicfile.Write(path, func(w io.Writer) error {
		var writeErr error
		produceErr, writeErr = streamTo(w, o, produce)
		return cmp.Or(produceErr, writeErr) // either leaves the file as it was
	})
	if produceErr != nil {
		return produceErr
	}
	if err != nil {
		return fmt.Errorf("treebank: %w", err)
	}
	return nil
}

// StreamTo is Stream to w (standard output) in o.Format, which must be
// set: the trees are written as they come, so an error leaves what was
// written before it.
func StreamTo(w io.Writer, o Options, produce func(write func(*tree.Tree) error) error) error {
	if f := o.Format; f != treebank.Export && f != treebank.Discbracket && f != treebank.TigerXML {
		return fmt.Errorf("treebank: cannot write format %v", f)
	}
	produceErr, writeErr := streamTo(w, o, produce)
	if produceErr != nil {
		return produceErr
	}
	if writeErr != nil {
		return fmt.Errorf("treebank: %w", writeErr)
	}
	return nil
}

// streamTo writes the trees produce gives to w in o.Format; it returns
// produce's own error, or the Writer's (a tree the format cannot hold, a
// failed write).
func streamTo(w io.Writer, o Options, produce func(write func(*tree.Tree) error) error) (produceErr, writeErr error) {
	tw := treebank.NewWriter(w, o.Format)
	defer tw.Discard()
	if o.PTBParens {
		tw.PTBParens()
	}
	var lastWriteErr error
	produceErr = produce(func(t *tree.Tree) error {
		lastWriteErr = tw.Write(t)
		return lastWriteErr
	})
	if produceErr != nil && produceErr == lastWriteErr {
		return nil, lastWriteErr // the Writer's own error: the caller names the file
	}
	if produceErr != nil {
		return produceErr, nil
	}
	return nil, tw.Flush()
}
