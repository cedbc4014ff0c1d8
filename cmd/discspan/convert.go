package main

import (
	"cmp"
	"context"
	"fmt"
	"io"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/internal/atomicfile"
	"github.com/discspan/discspan/internal/bankfile"
)

func runConvert(args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlags("convert", "[--reattach-punct] [--disco-parens] [--format F] IN OUT", stdout)
	punct := fs.Bool("reattach-punct", false, "move punctuation from the root to the lowest node around it (as the *.punctmoved files)")
	disco := fs.Bool("disco-parens", false, "discbracket output: write ( and ) in words as disco-dop's #LRB# and #RRB# (read back as parentheses) instead of the -LRB- and -RRB- of the Alpino discbracket files")
	format := fs.String("format", "", "OUT's format: export, discbracket or tigerxml (default: from OUT's extension; needed for - and /dev/stdout, standard output)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, rest, 2, "IN and OUT files (formats by extension: .export, .discbracket, TIGER-XML .xml/.tigerxml; PTB .mrg/.ptb input)"); err != nil {
		return err
	}
	if rest[0] == "-" {
		return fmt.Errorf("%w: IN -: convert reads IN twice and takes its format from its extension: give a file (or a named pipe)", errUsage)
	}
	toStdout := rest[1] == "-"
	opts := bankfile.Options{PTBParens: !*disco}
	named, nameErr := treebank.FormatOf(rest[1])
	switch {
	case *format != "":
		f, err := treebank.ParseFormat(*format)
		if err != nil || f == treebank.PTB {
			return fmt.Errorf("%w: --format %q: want export, discbracket or tigerxml", errUsage, *format)
		}
		if nameErr == nil && named != f {
			return fmt.Errorf("%w: OUT %s is named as %v, not %v (--format)", errUsage, rest[1], named, f)
		}
		opts.Format = f
	case toStdout:
		return fmt.Errorf("%w: OUT - (standard output): give its format with --format", errUsage)
	case nameErr != nil:
		return fmt.Errorf("%w: OUT %s: name its format by its extension (.export, .discbracket, .xml or .tigerxml) or with --format", errUsage, rest[1])
	case named == treebank.PTB:
		return fmt.Errorf("%w: OUT %s: cannot write format %v (write .export, .discbracket, .xml or .tigerxml)", errUsage, rest[1], named)
	}
	// A file converted onto itself in its own format is rewritten (the
	// punctuation reattached, say); in another format, what only its own
	// format holds (export's lemmas and edges, say) would be lost.
	if !toStdout && atomicfile.SameFile(rest[1], rest[0]) {
		in, inErr := treebank.FormatOf(rest[0])
		if out := cmp.Or(opts.Format, named); inErr != nil || in != out {
			return fmt.Errorf("%w: OUT %s is IN, in another format (%v): converting would overwrite it", errUsage, rest[1], out)
		}
	}
	out := cmp.Or(opts.Format, named)
	// A signal stops the conversion between two trees; OUT is then left
	// as it was (its temporary file removed), and so is a named pipe IN.
	signalled, release := onInterrupt(stderr, "discspan convert: interrupted: "+rest[1]+" is left as it was")
	defer release()
	if err := atomicfile.Check(rest[1]); !toStdout && err != nil {
		return err
	}
	stopped := func() error {
		if err := context.Cause(signalled); err != nil {
			return err
		}
		return nil
	}
	// convert reads IN twice: a named pipe is kept in a temporary file.
	paths, names, cleanup, err := spoolStreams(rest[:1], treebank.Unknown, signalled, stderr, "")
	if err != nil {
		return err
	}
	defer cleanup()
	defer func() {
		if err != nil {
			err = renamePaths(err, paths, names)
		}
	}()
	inPath := paths[0]
	convert := func(t *tree.Tree) *tree.Tree {
		if *punct {
			return tree.ReattachPunct(t)
		}
		return t
	}
	// The trees are converted as they are read, so memory does not grow
	// with the treebank; a file OUT is replaced only when all of IN was
	// read and written without error. A first pass reads IN whole and
	// writes it nowhere in OUT's format, so that nothing is written on
	// bad input or on a tree OUT's format cannot hold, also where OUT is
	// written in place (/dev/stdout, a pipe).
	in, err := treebank.OpenFile(inPath)
	if err != nil {
		return err
	}
	check := treebank.NewWriter(io.Discard, out)
	if opts.PTBParens {
		check.PTBParens()
	}
	err = in.Each(func(t *tree.Tree) error {
		if err := stopped(); err != nil {
			return err
		}
		if err := check.Write(convert(t)); err != nil {
			return fmt.Errorf("%s cannot be written as %v (nothing was written): %w", names[0], out, err)
		}
		return nil
	})
	check.Discard()
	in.Close()
	if err != nil {
		return err
	}
	in, err = treebank.OpenFile(inPath)
	if err != nil {
		return err
	}
	defer in.Close()
	n := 0
	produce := func(write func(*tree.Tree) error) error {
		return in.Each(func(t *tree.Tree) error {
			if err := stopped(); err != nil {
				return err
			}
			n++
			return write(convert(t))
		})
	}
	if toStdout {
		opts.Format = out
		err = bankfile.StreamTo(stdout, opts, produce)
	} else {
		err = bankfile.Stream(rest[1], opts, produce)
	}
	if err != nil {
		return err
	}
	// On standard error, so that OUT may be /dev/stdout.
	fmt.Fprintf(stderr, "discspan convert: wrote %d trees to %s\n", n, rest[1])
	return nil
}
