package main

import (
	"cmp"
	"fmt"
	"io"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/internal/atomicfile"
	"github.com/discspan/discspan/internal/bankfile"
)

func runConvert(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("convert", "[--reattach-punct] [--disco-parens] [--format F] IN OUT", stdout)
	punct := fs.Bool("reattach-punct", false, "move punctuation from the root to the lowest node around it (as the *.punctmoved files)")
	disco := fs.Bool("disco-parens", false, "discbracket output: write ( and ) in words as disco-dop's #LRB# and #RRB# (read back as parentheses) instead of the -LRB- and -RRB- of the Alpino discbracket files")
	format := fs.String("format", "", "OUT's format: export, discbracket or tigerxml (default: from OUT's extension; needed for /dev/stdout)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, rest, 2, "IN and OUT files (formats by extension: .export, .discbracket, TIGER-XML .xml/.tigerxml; PTB .mrg/.ptb input)"); err != nil {
		return err
	}
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
	case nameErr != nil:
		return fmt.Errorf("%w: OUT %s: name its format by its extension (.export, .discbracket, .xml or .tigerxml) or with --format", errUsage, rest[1])
	case named == treebank.PTB:
		return fmt.Errorf("%w: OUT %s: cannot write format %v (write .export, .discbracket, .xml or .tigerxml)", errUsage, rest[1], named)
	}
	// A file converted onto itself in its own format is rewritten (the
	// punctuation reattached, say); in another format, what only its own
	// format holds (export's lemmas and edges, say) would be lost.
	if atomicfile.SameFile(rest[1], rest[0]) {
		in, inErr := treebank.FormatOf(rest[0])
		out := cmp.Or(opts.Format, named)
		if inErr != nil || in != out {
			return fmt.Errorf("%w: OUT %s is IN, in another format (%v): converting would overwrite it", errUsage, rest[1], out)
		}
	}
	// The trees are converted as they are read, so memory does not grow
	// with the treebank; a file OUT is replaced only when all of IN was
	// read and written without error.
	// A first pass checks IN whole, so that nothing is written on bad
	// input, also where OUT is written in place (/dev/stdout, a pipe).
	in, err := treebank.OpenFile(rest[0])
	if err != nil {
		return err
	}
	_, err = in.Rest(nil)
	in.Close()
	if err != nil {
		return err
	}
	in, err = treebank.OpenFile(rest[0])
	if err != nil {
		return err
	}
	defer in.Close()
	n := 0
	err = bankfile.Stream(rest[1], opts, func(write func(*tree.Tree) error) error {
		return in.Each(func(t *tree.Tree) error {
			if *punct {
				t = tree.ReattachPunct(t)
			}
			n++
			return write(t)
		})
	})
	if err != nil {
		return err
	}
	// On standard error, so that OUT may be /dev/stdout.
	fmt.Fprintf(stderr, "discspan convert: wrote %d trees to %s\n", n, rest[1])
	return nil
}
