package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/discspan/discspan/bench"
	"github.com/discspan/discspan/internal/cli"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/webgpu"
)

func runBenchScore(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench score", "--input FILE [--weights W] [--backends cpu,webgpu] [--batch N] [--runs R] [--gpu-max-words N] [--json]", stdout)
	weightsPath := fs.String("weights", "", "weights file, or several separated by commas for an ensemble (default: the shipped default model, embedded)")
	input := fs.String("input", "", "sentences to score: a treebank (.export/.discbracket/...: its words) or text, one sentence a line (required)")
	tokenized := fs.Bool("tokenized", false, "text input is already tokenized (tokens separated by spaces)")
	backendList := fs.String("backends", "cpu,webgpu", "backends to measure, separated by commas: "+strings.Join(bench.ScoreBackends, ", ")+" (webgpu-f16: float16 weights on the device; webgpu-per-model: each model of an ensemble on a device of its own, averaged on the CPU, where webgpu averages them on one device)")
	batch := fs.Int("batch", 64, "sentences per Score call")
	runs := fs.Int("runs", 3, "timed passes over the whole file after the warm-up pass")
	maxWords := fs.Int("gpu-max-words", webgpu.DefaultMaxWords, "WebGPU: the longest sentence the scorer is built for, raised to the input's longest (the app's is 200; parse's the larger of 200 and its --max-words); the self-check at setup scores a sentence of this length. Not a limit on the input")
	asJSON := fs.Bool("json", false, "print one JSON object a line per backend instead of a table")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, rest, 0, "no positional arguments (use --input)"); err != nil {
		return err
	}
	backends, err := parseScoreBackends(*backendList)
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name  string
		value int
	}{{"--batch", *batch}, {"--runs", *runs}, {"--gpu-max-words", *maxWords}} {
		if f.value < 1 {
			return fmt.Errorf("%w: %s must be >= 1 (got %d)", errUsage, f.name, f.value)
		}
	}
	if *input == "" {
		return fmt.Errorf("%w: --input is required (a treebank or a text file)", errUsage)
	}
	ms, err := loadModels(*weightsPath)
	if err != nil {
		return fmt.Errorf("loading --weights: %w", err)
	}
	models, vocab, name := ms.Models, ms.Vocab, ms.Name
	sents, err := cli.ReadSentences(*input, *tokenized)
	if err != nil {
		return fmt.Errorf("reading --input: %w", err)
	}
	sents = slices.DeleteFunc(sents, func(s []string) bool { return len(s) == 0 }) // blank lines
	if len(sents) == 0 {
		return fmt.Errorf("reading --input %s: no sentences", *input)
	}
	b := &bench.Scoring{Models: models, Batch: *batch, Runs: *runs, MaxWords: *maxWords, Ins: make([]network.Input, len(sents))}
	words, longest := 0, 0
	for i, s := range sents {
		b.Ins[i] = vocab.Encode(s)
		words += len(s)
		longest = max(longest, len(s))
	}
	b.Base = bench.ScoreRow{Input: *input, Weights: name, Models: len(models), Sentences: len(sents), Words: words, Batch: *batch, Runs: *runs}

	w := bufio.NewWriter(stdout)
	defer w.Flush()
	if !*asJSON {
		fmt.Fprintf(w, "weights %s (%d model(s)); %s: %d sentences, %d words (longest %d); batch %d, %d timed pass(es) after one warm-up pass\n\n",
			name, len(models), *input, len(sents), words, longest, *batch, *runs)
		fmt.Fprintln(w, bench.ScoreHeader)
		if err := w.Flush(); err != nil {
			return err
		}
	}
	var failed, phases []string
	for _, be := range backends {
		row := b.Measure(be)
		if row.Phases != nil {
			phases = append(phases, fmt.Sprintf("%s, per timed pass (summed over the models): %s", be, row.Phases))
		}
		if row.Err != "" && !row.Unavailable {
			failed = append(failed, be+": "+row.Err)
		}
		if *asJSON {
			if err := json.NewEncoder(w).Encode(row); err != nil {
				return err
			}
		} else {
			fmt.Fprintln(w, row.Markdown())
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	if len(phases) > 0 && !*asJSON {
		fmt.Fprintf(w, "\nWhere the WebGPU time went:\n")
		for _, p := range phases {
			fmt.Fprintln(w, "  "+p)
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("bench score: %s", strings.Join(failed, "; "))
	}
	return nil
}

// parseScoreBackends splits a --backends list, rejecting unknown names and
// repeats, and moves "cpu" first: its first pass is the reference the
// other backends are compared with.
func parseScoreBackends(list string) ([]string, error) {
	var out []string
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(strings.ToLower(name))
		if name == "" {
			continue
		}
		if !slices.Contains(bench.ScoreBackends, name) {
			return nil, fmt.Errorf("%w: unknown backend %q in --backends (want %s)", errUsage, name, strings.Join(bench.ScoreBackends, ", "))
		}
		if slices.Contains(out, name) {
			return nil, fmt.Errorf("%w: backend %q named twice in --backends", errUsage, name)
		}
		out = append(out, name)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: --backends names no backend (want some of %s)", errUsage, strings.Join(bench.ScoreBackends, ", "))
	}
	if i := slices.Index(out, "cpu"); i > 0 {
		out = append([]string{"cpu"}, slices.Delete(out, i, i+1)...)
	}
	return out, nil
}
