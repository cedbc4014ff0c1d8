package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/internal/atomicfile"
	"github.com/discspan/discspan/internal/cli"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/scorer"
)

// parseChunk is the most sentences parse parses at once (a batch).
const parseChunk = 128

func runParse(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("parse", "[--weights W] [--variant V] [--input FILE] [--input-format F] [--format discbracket|export|tigerxml] [--max-words N] [--max-mb MB] [--backend cpu|webgpu|auto]", stdout)
	weightsPath := fs.String("weights", "", "weights file, or several separated by commas to average their scores (default: the shipped default model, embedded)")
	variant := fs.String("variant", "n3", "decoder variant: continuous, n3, n4, n5wn, n5, n6wn, n6")
	input := fs.String("input", "", "input: a treebank (.export/.discbracket: its words are parsed) or text, one sentence a line (default, or -: standard input)")
	inputFormat := fs.String("input-format", "", "the input's format: text, export, discbracket, tigerxml or ptb (default: from --input's extension, else text; standard input is text unless this says otherwise)")
	tokenized := fs.Bool("tokenized", false, "text input is already tokenized (tokens separated by spaces)")
	splitLines := fs.Bool("split-sentences", false, "text input may hold several sentences a line: cut each line into sentences (as the app's annotation tab does; default: one sentence a line)")
	format := fs.String("format", "discbracket", "output format: discbracket, export or tigerxml (default: from --output's extension, else discbracket)")
	output := fs.String("output", "", "output file (default, or -: standard output)")
	workers := fs.Int("workers", 0, "parallel workers (default: all cores)")
	maxWords := fs.Int("max-words", tree.DefaultMaxWords, "longest sentence parsed, in words (longer ones are refused; -1: no limit)")
	maxMB := fs.Int64("max-mb", decode.DefaultMaxBytes>>20, "memory budget in MiB of one sentence's parse (the network's outputs and work memory, the scores, the chart); a sentence over it is refused")
	backend := fs.String("backend", backendCPU, "what scores the spans: cpu (the CPU reference), webgpu (WebGPU on any adapter, software ones included) or auto (WebGPU on a hardware adapter, else the CPU); WebGPU only after its self-check agrees with the CPU, else the CPU scores (standard error says which, and why)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := cmp.Or(checkWorkers(*workers), checkMaxWords(*maxWords, false)); err != nil {
		return err
	}
	if *maxMB < 1 || *maxMB > maxChartMB {
		return fmt.Errorf("%w: --max-mb %d: want a budget of 1 to %d MiB", errUsage, *maxMB, maxChartMB)
	}
	// "-" is standard input and output, as for eval (not files named -).
	if *input == "-" {
		*input = ""
	}
	if *output == "-" {
		*output = ""
	}
	if *output != "" && *input != "" && atomicfile.SameFile(*output, *input) {
		return fmt.Errorf("%w: --output %s is the --input: parsing would overwrite it", errUsage, *output)
	}
	if *output != "" && *weightsPath != "" {
		for _, w := range strings.Split(*weightsPath, ",") {
			if w = strings.TrimSpace(w); w != "" && atomicfile.SameFile(*output, w) {
				return fmt.Errorf("%w: --output %s is one of the --weights: parsing would overwrite the model", errUsage, *output)
			}
		}
	}
	if *output != "" && strings.EqualFold(filepath.Ext(*output), ".safetensors") {
		return fmt.Errorf("%w: --output %s is named as a weights file: parse writes trees (.discbracket, .export or .xml)", errUsage, *output)
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
	p.Decode.MaxBytes = *maxMB << 20
	p.Decode.Progress = decodeProgress(stderr, v, parseProgressEvery, time.Now)
	mode := cli.TextModeOf(*tokenized)
	if *splitLines {
		if *tokenized {
			return fmt.Errorf("%w: --split-sentences tokenizes the text to find its sentences; --tokenized text is one sentence a line", errUsage)
		}
		mode = cli.SplitLines
	}
	if *inputFormat != "" && !slices.Contains(cli.InputFormats, *inputFormat) {
		return fmt.Errorf("%w: --input-format %q: want one of %s", errUsage, *inputFormat, strings.Join(cli.InputFormats, ", "))
	}
	in, err := cli.OpenInputAs(*input, mode, *inputFormat)
	if err != nil {
		return err
	}
	defer in.Close()
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, "discspan parse: "+format+"\n", args...) }
	// The output file is replaced only once every tree is written: a
	// failed or interrupted run leaves no partial file behind. Standard
	// output gets each batch's trees once it is parsed, and ends with the
	// last whole tree written.
	ctx, release := onInterrupt(stderr, fmt.Sprintf("discspan parse: interrupted: stopping after the sentences being parsed, or in %v at most (Ctrl-C again to quit at once)", parseGrace))
	defer release()
	s := &parseStream{p: p, variant: v, workers: *workers, backend: *backend, models: ms, maxWords: *maxWords, logf: logf}
	defer s.close()
	write := func(w io.Writer) error { return s.run(ctx, in, treebank.NewWriter(w, outFormat)) }
	if *output != "" {
		err = atomicfile.Write(*output, write)
	} else {
		err = write(stdout)
	}
	if err != nil {
		return err
	}
	release() // no signal is taken after this: one now ends the process
	if sig, ok := context.Cause(ctx).(*signalError); ok {
		// Interrupted while the last batch was parsed, or just after:
		// the output is whole, but the exit status still says that a
		// signal came.
		return fmt.Errorf("%w after every sentence was parsed", sig)
	}
	refused := in.Refused()
	refused.Join(s.refused)
	return refusedError(refused)
}

// parseProgressEvery is how often parse says how far the decoding of a
// long sentence is (n5 and n6 take minutes for a few hundred words).
const parseProgressEvery = 30 * time.Second

// decodeProgress returns a decode.Options.Progress that writes a line to w
// about a sentence whose decoding has taken every interval or more, at
// most once every interval (the decoders of several sentences share it);
// now is the clock.
func decodeProgress(w io.Writer, v decode.Variant, every time.Duration, now func() time.Time) func(words int, done float64, elapsed time.Duration) {
	var mu sync.Mutex
	var last time.Time
	return func(words int, done float64, elapsed time.Duration) {
		if elapsed < every || done >= 1 {
			return // a sentence decoded quickly says nothing
		}
		mu.Lock()
		defer mu.Unlock()
		if t := now(); t.Sub(last) >= every {
			last = t
			fmt.Fprintf(w, "discspan parse: decoding a sentence of %d words with %s: about %d%% of its chart built after %v\n", words, v, int(100*done), elapsed.Round(time.Second))
		}
	}
}

// parseGrace is how long parse, once interrupted, waits for the sentences
// being parsed before it stops without them (a batch of long sentences
// with n6 takes minutes; SIGTERM from a service manager or timeout wants
// the process gone).
const parseGrace = 3 * time.Second

// parseStream parses an input batch by batch as it is read, so that no
// more than a batch or two is held at once, whatever the input's length.
type parseStream struct {
	p        *parser.Parser
	variant  decode.Variant
	workers  int
	backend  string
	models   *parser.Models
	maxWords int // parse's --max-words (-1: no limit)
	logf     func(string, ...any)
	scorer   scorer.Scorer // chosen with the first batch holding words
	refused  cli.Refusals  // sentences parse refused (the input's own are in.Refused)
	// abandoned: a batch was left parsing (parseBatch), which may still
	// use the scorer.
	abandoned bool
}

// run parses in's sentences, parseChunk at a time at most, and writes one
// output per input sentence to out: a sentence too long to parse gets a
// flat tree (tree.NoParse), a blank line, a line or tree that could not be
// read, or words the format cannot hold stay blank in discbracket (and
// are left out of export and TIGER-XML); a tree keeps the id of the input's tree,
// and a text's line gets its number. It stops between batches when ctx is
// cancelled.
func (s *parseStream) run(ctx context.Context, in *cli.Input, out *treebank.Writer) error {
	batches := in.Batches(parseChunk)
	defer batches.Stop()
	// Bytes of a file read; sentences of a pipe, whose size is unknown.
	var bar *cli.Progress
	if in.Size() > 0 {
		bar = cli.NewByteProgress(in.Size(), "parsing")
	} else {
		bar = cli.NewProgress(-1, "sentences parsed")
	}
	defer bar.Finish()
	done := 0 // sentences read and written
	for {
		chunk, last, err := batches.Next(ctx)
		if ctx.Err() != nil {
			if err := out.Flush(); err != nil {
				return err
			}
			return fmt.Errorf("%w after %d sentences", context.Cause(ctx), done)
		}
		if err != nil {
			return errors.Join(err, out.Flush())
		}
		// A sentence the parser refuses (too long, too big a chart) is
		// named at the end, and written as a flat tree.
		words := make([][]string, 0, len(chunk))
		where := make([]string, 0, len(chunk)) // of each sentence of words
		flat := make([]bool, len(chunk))
		for k, sent := range chunk {
			if len(sent.Words) == 0 {
				continue
			}
			if err := cmp.Or(s.p.CheckWords(sent.Words), s.p.CheckFits(len(sent.Words), s.variant)); err != nil {
				why := fmt.Sprintf("%s: %v", sent.Where, err)
				if len(sent.Words) > treebank.MaxTokens {
					why += fmt.Sprintf(" (left out: more than %d tokens, the readers' limit, even for a flat tree)", treebank.MaxTokens)
				}
				s.refused.Add(why)
				flat[k] = true
				continue
			}
			words = append(words, sent.Words)
			where = append(where, sent.Where)
		}
		if len(words) > 0 && s.scorer == nil {
			if err := s.chooseScorer(words, last); err != nil {
				return err
			}
		}
		results, err := s.parseBatch(ctx, words)
		if errors.Is(err, errAbandoned) {
			return errors.Join(fmt.Errorf("%w after %d sentences (the %d being parsed were dropped)", context.Cause(ctx), done, len(chunk)), out.Flush())
		}
		var bad *parser.SentenceError
		if errors.As(err, &bad) && bad.Index < len(where) {
			return fmt.Errorf("%s: %w", where[bad.Index], bad.Err) // its file and line
		}
		if err != nil {
			return fmt.Errorf("sentences %d-%d: %w", done+1, done+len(chunk), err)
		}
		for k, sent := range chunk {
			if len(sent.Words) == 0 {
				if err := out.Blank(); err != nil {
					return err
				}
				continue
			}
			var t *tree.Tree
			if flat[k] {
				t = tree.NoParse(sent.Words)
			} else {
				t = results[0].Tree
				results = results[1:]
			}
			t.ID = cmp.Or(sent.ID, fmt.Sprint(done+k+1))
			err := out.Write(t)
			var unwritable *treebank.WriteError
			if errors.As(err, &unwritable) {
				// A tree the format cannot hold (an export word "#1") is
				// refused: blank, and named (a sentence refused already,
				// whose flat tree is too big, was named with that).
				if !flat[k] {
					s.refused.Add(fmt.Sprintf("%s: %v", sent.Where, unwritable.Err))
				}
				err = out.Blank()
			}
			if err != nil {
				return fmt.Errorf("sentence %d: %w", done+k+1, err)
			}
		}
		done += len(chunk)
		if in.Size() > 0 {
			bar.Set(int(in.Offset()))
		} else {
			bar.Set(done)
		}
		if last {
			return out.Flush()
		}
		if err := out.FlushTrees(); err != nil {
			return err
		}
	}
}

// errAbandoned is parseBatch's error for a batch left unfinished.
var errAbandoned = errors.New("batch abandoned")

// parseBatch parses words; once ctx is cancelled it waits parseGrace at
// most, then returns errAbandoned, leaving the batch to finish unseen (the
// scorer is then not closed under it: the process is ending).
func (s *parseStream) parseBatch(ctx context.Context, words [][]string) ([]*parser.Result, error) {
	type outcome struct {
		results []*parser.Result
		err     error
	}
	finished := make(chan outcome, 1)
	go func() {
		r, err := s.p.ParseBatch(words, s.variant, s.workers)
		finished <- outcome{r, err}
	}()
	select {
	case o := <-finished:
		return o.results, o.err
	case <-ctx.Done():
	}
	grace := time.NewTimer(parseGrace)
	defer grace.Stop()
	select {
	case o := <-finished:
		return o.results, o.err
	case <-grace.C:
		s.abandoned = true
		return nil, errAbandoned
	}
}

// chooseScorer sets up the scorer of --backend, sized from the first batch
// of sentences to parse, words: WebGPU's longest sentence is --max-words
// when it is set (else this batch's longest; a longer sentence later is
// scored on the CPU, and said so), and its chunk holds this batch's tokens
// (words, BOS and EOS), with room for a batch twice as big unless the input
// ends with it (a bigger batch is scored in several chunks).
func (s *parseStream) chooseScorer(words [][]string, last bool) error {
	longest, tokens := 0, 0
	for _, w := range words {
		longest = max(longest, len(w))
		tokens += len(w) + 2
	}
	if s.maxWords > 0 {
		longest = max(longest, s.maxWords)
	}
	if !last {
		tokens *= 2
	}
	sc, line, err := chooseParseScorer(s.backend, s.models, longest, tokens, nativeGPU(), s.logf)
	if err != nil {
		return err
	}
	s.scorer, s.p.Scorer = sc, sc
	if s.backend != backendCPU {
		s.logf("%s", line)
	}
	return nil
}

// close releases the scorer, if one was set up and no abandoned batch
// may still use it.
func (s *parseStream) close() {
	if s.scorer != nil && !s.abandoned {
		s.scorer.Close()
	}
}

// refusedError reports the refused sentences (the first ten named), or nil.
// When reading stopped at an error (an XML syntax error), that error is
// named too, whatever its place, and the message does not say that all
// the others were parsed: the sentences after it were never read.
func refusedError(r cli.Refusals) error {
	if r.Total == 0 {
		return nil
	}
	named := r.Named[:min(len(r.Named), 10)]
	list := strings.Join(named, "; ")
	more := r.Total - len(named)
	stop := r.Stopped != "" && !slices.Contains(named, r.Stopped)
	if stop {
		more-- // named below
	}
	if more > 0 {
		list += fmt.Sprintf("; and %d more", more)
	}
	if stop {
		list += "; " + r.Stopped
	}
	if r.Stopped != "" {
		return fmt.Errorf("%d sentence(s) refused, the others read parsed: %s", r.Total, list)
	}
	return fmt.Errorf("%d sentence(s) refused, the others parsed: %s", r.Total, list)
}

// loadModels reads the weights a --weights flag names (see
// parser.ReadFiles): the embedded default model when it is empty, else one
// file or several separated by commas, whose models then score as one
// ensemble. Files trained with different vocabularies are a usage error.
func loadModels(flag string) (*parser.Models, error) {
	if flag == "" {
		return readModels()
	}
	paths, err := splitWeights(flag)
	if err != nil {
		return nil, err
	}
	return readModels(paths...)
}

// splitWeights returns the paths of a --weights flag: separated by commas,
// spaces around them dropped, empty ones (a trailing comma) skipped; a
// flag naming none is a usage error.
func splitWeights(flag string) ([]string, error) {
	var paths []string
	for _, p := range strings.Split(flag, ",") {
		if p = strings.TrimSpace(p); p != "" {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("%w: --weights %q names no file or directory", errUsage, flag)
	}
	return paths, nil
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
