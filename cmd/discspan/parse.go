package main

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/internal/atomicfile"
	"github.com/discspan/discspan/internal/cli"
	"github.com/discspan/discspan/parser"
)

// parseChunk is the number of sentences parsed between progress updates.
const parseChunk = 128

func runParse(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("parse", "[--weights W] [--variant V] [--input FILE] [--format discbracket|export|tigerxml] [--max-words N] [--backend cpu|webgpu|auto]", stdout)
	weightsPath := fs.String("weights", "", "weights file, or several separated by commas to average their scores (default: the shipped default model, embedded)")
	variant := fs.String("variant", "n3", "decoder variant: continuous, n3, n4, n5wn, n5, n6wn, n6")
	input := fs.String("input", "", "input: a treebank (.export/.discbracket: its words are parsed) or text, one sentence a line (default: standard input)")
	tokenized := fs.Bool("tokenized", false, "text input is already tokenized (tokens separated by spaces)")
	format := fs.String("format", "discbracket", "output format: discbracket, export or tigerxml (default: from --output's extension, else discbracket)")
	output := fs.String("output", "", "output file (default: standard output)")
	workers := fs.Int("workers", 0, "parallel workers (default: all cores)")
	maxWords := fs.Int("max-words", tree.DefaultMaxWords, "longest sentence parsed, in words (longer ones are refused; -1: no limit)")
	backend := fs.String("backend", backendCPU, "what scores the spans: cpu (the CPU reference), webgpu (WebGPU on any adapter, software ones included) or auto (WebGPU on a hardware adapter, else the CPU); WebGPU only after its self-check agrees with the CPU, else the CPU scores (standard error says which, and why)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := cmp.Or(checkWorkers(*workers), checkMaxWords(*maxWords, false)); err != nil {
		return err
	}
	if *output != "" && *input != "" && atomicfile.SameFile(*output, *input) {
		return fmt.Errorf("%w: --output %s is the --input: parsing would overwrite it", errUsage, *output)
	}
	if err := wantArgs(fs, rest, 0, "no positional arguments (use --input)"); err != nil {
		return err
	}
	v, err := decode.ParseVariant(*variant)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	outFormat, err := treebank.ParseFormat(*format)
	if err != nil || outFormat == treebank.PTB {
		return fmt.Errorf("%w: --format %q: want discbracket, export or tigerxml", errUsage, *format)
	}
	if f, err := treebank.FormatOf(*output); *output != "" && err == nil && f != outFormat {
		// An --output named .export gets export, unless --format says
		// otherwise, which is then a contradiction.
		if f == treebank.PTB {
			return fmt.Errorf("%w: --output %s: cannot write format %v", errUsage, *output, f)
		}
		if isFlagSet(fs, "format") {
			return fmt.Errorf("%w: --output %s is named as %v, not %v (--format)", errUsage, *output, f, outFormat)
		}
		outFormat = f
	}
	if err := checkBackend(*backend); err != nil {
		return err
	}
	ms, err := loadModels(*weightsPath)
	if err != nil {
		return err
	}
	p, err := ms.Parser()
	if err != nil {
		return err
	}
	p.MaxWords = *maxWords
	lines, refused, err := cli.ReadInput(*input, *tokenized)
	if err != nil {
		return err
	}
	// A sentence the parser refuses (too long, not UTF-8) is named at the
	// end and gets a blank output line; the others are parsed.
	sents := make([][]string, len(lines))
	for i, s := range lines {
		if err := cmp.Or(p.CheckWords(s.Words), p.CheckFits(len(s.Words), v)); err != nil {
			refused = append(refused, fmt.Sprintf("%s: %v", s.Where, err))
			continue
		}
		sents[i] = s.Words
	}
	// The scorer is sized for the sentences accepted: the longest, and the
	// most tokens of one batch of parseChunk of them.
	longest, batchTokens := 0, 0
	for start := 0; start < len(sents); start += parseChunk {
		tokens := 0
		for _, s := range sents[start:min(start+parseChunk, len(sents))] {
			longest = max(longest, len(s))
			if len(s) > 0 {
				tokens += len(s) + 2
			}
		}
		batchTokens = max(batchTokens, tokens)
	}
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, "discspan parse: "+format+"\n", args...) }
	chosen := *backend
	if longest == 0 {
		chosen = backendCPU // nothing to score: no device to set up
	}
	sc, line, err := chooseParseScorer(chosen, ms, longest, batchTokens, nativeGPU(), logf)
	if err != nil {
		return err
	}
	defer sc.Close()
	p.Scorer = sc
	if chosen != backendCPU {
		logf("%s", line)
	}
	// The output file is replaced only once every tree is written: a
	// failed or interrupted run leaves no partial file behind. Standard
	// output ends with the last whole tree written.
	ctx, release := onInterrupt(stderr, "discspan parse: interrupted: stopping after the sentences being parsed (Ctrl-C again to quit at once)")
	defer release()
	write := func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		out := treebank.NewWriter(bw, outFormat)
		bar := cli.NewProgress(len(sents), "parsing")
		defer bar.Finish()
		// One output per input line: a blank line (no words) or a refused
		// one stays blank in discbracket; tree ids are line numbers.
		for start := 0; start < len(sents); start += parseChunk {
			if ctx.Err() != nil {
				if err := cmp.Or(out.Flush(), bw.Flush()); err != nil {
					return err
				}
				return fmt.Errorf("interrupted after %d of %d sentences", start, len(sents))
			}
			chunk := sents[start:min(start+parseChunk, len(sents))]
			var words [][]string
			for _, s := range chunk {
				if len(s) > 0 {
					words = append(words, s)
				}
			}
			results, err := p.ParseBatch(words, v, *workers)
			if err != nil {
				return fmt.Errorf("sentences %d-%d: %w", start+1, start+len(chunk), err)
			}
			for k, s := range chunk {
				if len(s) == 0 {
					if err := out.Blank(); err != nil {
						return err
					}
					continue
				}
				t := results[0].Tree
				results = results[1:]
				t.ID = fmt.Sprint(start + k + 1)
				err := out.Write(t)
				var unwritable *treebank.WriteError
				if errors.As(err, &unwritable) {
					// A tree the format cannot hold (an export word "#1") is
					// refused as a sentence too long is: blank, and named.
					refused = append(refused, fmt.Sprintf("%s: %v", lines[start+k].Where, unwritable.Err))
					err = out.Blank()
				}
				if err != nil {
					return fmt.Errorf("line %d: %w", start+k+1, err)
				}
			}
			bar.Set(start + len(chunk))
		}
		if err := out.Flush(); err != nil {
			return err
		}
		return bw.Flush()
	}
	if *output != "" {
		err = atomicfile.Write(*output, write)
	} else {
		err = write(stdout)
	}
	if err != nil {
		return err
	}
	return refusedError(refused)
}

// refusedError reports the refused sentences (the first ten named), or nil.
func refusedError(refused []string) error {
	if len(refused) == 0 {
		return nil
	}
	list := strings.Join(refused[:min(len(refused), 10)], "; ")
	if len(refused) > 10 {
		list += fmt.Sprintf("; and %d more", len(refused)-10)
	}
	return fmt.Errorf("%d sentence(s) refused, the others parsed: %s", len(refused), list)
}

// loadModels reads the weights a --weights flag names (see
// parser.ReadFiles): the embedded default model when it is empty, else one
// file or several separated by commas, whose models then score as one
// ensemble. Files trained with different vocabularies are a usage error.
func loadModels(flag string) (*parser.Models, error) {
	if flag == "" {
		return readModels()
	}
	return readModels(strings.Split(flag, ",")...)
}

// readModels is parser.ReadFiles, with files trained with different
// vocabularies a usage error.
func readModels(paths ...string) (*parser.Models, error) {
	ms, err := parser.ReadFiles(paths...)
	if errors.Is(err, parser.ErrVocabulary) {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	return ms, err
}
