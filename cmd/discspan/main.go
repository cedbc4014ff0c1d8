// Command discspan is the command-line tool of discspan: exact discontinuous
// constituency parsing. Each subcommand lives in its own file and only
// parses flags and calls the packages that do the work.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/discspan/discspan/internal/cli"
)

// command is one subcommand: its one-line summary and its entry point, which
// receives the arguments after the subcommand's name.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

func commands() map[string]command {
	return map[string]command{
		"decode":   {"decode a score file with an exact chart decoder", runDecode},
		"eval":     {"evaluate parses against gold trees (disco-dop proper.prm semantics)", runEval},
		"coverage": {"maximum constituent recall of a decoder variant on a treebank", runCoverage},
		"convert":  {"convert a treebank between export, discbracket and TIGER-XML (and PTB input)", runConvert},
		"bench":    {"benchmarks (bench decode, bench serve, bench score, bench onnx-export)", runBench},
		"parse":    {"parse text or a treebank's words with a trained model", runParse},
		"train":    {"train the scoring network on a treebank (best model by dev F1)", runTrain},
		"serve":    {"serve the browser app, the model list and the weights", runServe},
		"ensemble": {"combine trained models into one weights file whose scores are averaged", runEnsemble},
	}
}

func usage(w io.Writer) {
	cli.Fprintln(w, "discspan: exact discontinuous constituency parsing (Corro 2020)\n\nUsage: discspan <command> [flags] [args]\n\nCommands:")
	cmds := commands()
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, cmds[n].summary)
	}
	cli.Fprintln(w, "\nRun 'discspan <command> --help' for a command's flags.")
}

// errUsage marks errors caused by bad arguments (exit status 2 like input
// errors; kept distinct for tests).
var errUsage = errors.New("usage")

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line and returns the exit status: 0 on success,
// 2 with a one-line error on bad arguments or input, 128 plus the signal's
// number when a signal stopped the work (130 for Ctrl-C).
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 2 && args[0] == "help" {
		args = []string{args[1], "--help"} // discspan help parse: parse's flags
	}
	switch {
	case len(args) == 0:
		fmt.Fprintln(stderr, "discspan: no command given (run 'discspan --help' for the commands)")
		return 2
	case args[0] == "-h" || args[0] == "--help" || args[0] == "help":
		usage(stdout)
		return 0
	}
	cmd, ok := commands()[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "discspan: unknown command %q (run 'discspan --help')\n", args[0])
		return 2
	}
	out := &checkedWriter{w: stdout}
	err := cmd.run(args[1:], out, stderr)
	if out.err != nil && (err == nil || errors.Is(err, flag.ErrHelp)) {
		// A command's report lost (a full disk, a closed pipe) is a
		// failure, not an empty result.
		err = fmt.Errorf("writing standard output: %w", out.err)
	}
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "discspan %s: %s\n", args[0], cli.OneLine(err))
		if sig := (*signalError)(nil); errors.As(err, &sig) {
			return sig.exitStatus()
		}
		return 2
	}
	return 0
}

// checkedWriter passes writes on to w and remembers the first error, so
// that a command that prints its results without checking each write
// still fails when they were not written.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

// flagSet is a command's flags and its help text.
type flagSet struct {
	*flag.FlagSet
	help func() // prints the usage to standard output
}

// newFlags returns a flag set that prints its usage to stdout on --help and
// reports errors as values (a one-line error, without the usage).
func newFlags(name, synopsis string, stdout io.Writer) *flagSet {
	fs := flag.NewFlagSet("discspan "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {} // the flag package calls it on errors too
	return &flagSet{FlagSet: fs, help: func() {
		fmt.Fprintf(stdout, "Usage: discspan %s %s\n\nFlags:\n", name, synopsis)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}}
}

// parseFlags parses args, allowing flags after positional arguments, and
// returns the positional arguments; --help prints the usage and returns
// flag.ErrHelp.
func parseFlags(fs *flagSet, args []string) ([]string, error) {
	var positional []string
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			fs.help()
			return nil, err
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		if fs.NArg() == 0 {
			return positional, nil
		}
		if at := len(args) - fs.NArg(); at > 0 && args[at-1] == "--" {
			// After the terminator every argument is positional, even
			// one that begins with a dash.
			return append(positional, fs.Args()...), nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// wantArgs checks the number of positional arguments.
func wantArgs(fs *flagSet, args []string, n int, names string) error {
	if len(args) != n {
		return fmt.Errorf("%w: want %s, got %d argument(s) (see %s --help)", errUsage, names, len(args), fs.Name())
	}
	return nil
}
