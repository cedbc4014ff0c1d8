package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/discspan/discspan/chart/coverage"
	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/internal/cli"
)

// coverageJSON is one variant's line of the coverage table.
type coverageJSON struct {
	Variant   string         `json:"variant"`
	All       float64        `json:"all"`
	BDLe2     float64        `json:"bd_le2"`
	BDEq2     float64        `json:"bd_eq2"`
	Counts    coverageCounts `json:"counts"`
	Sentences int            `json:"sentences"`
	Skipped   int            `json:"skipped_sentences"`
	TooLong   int            `json:"too_long_sentences,omitempty"`
}

type coverageCounts struct {
	All   coverage.Counts `json:"all"`
	BDLe2 coverage.Counts `json:"bd_le2"`
	BDEq2 coverage.Counts `json:"bd_eq2"`
}

func runCoverage(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("coverage", "[--json] [--max-words N] --variant V FILE...", stdout)
	variants := fs.String("variant", "n3", "decoder variant, a comma-separated list, or 'all'")
	asJSON := fs.Bool("json", false, "print JSON (one object per variant, one per line)")
	workers := fs.Int("workers", 0, "parallel decoders (default: all cores)")
	maxWords := fs.Int("max-words", tree.DefaultMaxWords, "longest sentence measured, in words (longer ones are left out and counted; -1: no limit)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := cmp.Or(checkWorkers(*workers), checkMaxWords(*maxWords, false)); err != nil {
		return err
	}
	if len(rest) == 0 {
		return fmt.Errorf("%w: want one or more treebank files (their trees are pooled)", errUsage)
	}
	var vs []decode.Variant
	if *variants == "all" {
		vs = decode.Variants
	} else {
		for _, name := range strings.Split(*variants, ",") {
			v, err := decode.ParseVariant(strings.TrimSpace(name))
			if err != nil {
				return fmt.Errorf("%w: %v", errUsage, err)
			}
			vs = append(vs, v)
		}
	}
	var trees []*tree.Tree
	for _, file := range rest {
		t, err := treebank.ReadFile(file)
		if err != nil {
			return err
		}
		trees = append(trees, t...)
	}
	if !*asJSON {
		fmt.Fprintf(stdout, "%s: %d sentences (maximum recall in %%, with counts recovered/total)\n", strings.Join(rest, " + "), len(trees))
		fmt.Fprintf(stdout, "%-11s %-24s %-24s %-24s\n", "variant", "all", "block degree <= 2", "block degree = 2")
	}
	for _, v := range vs {
		bar := cli.NewProgress(len(trees), "coverage "+v.String())
		rep, err := coverage.Compute(trees, v, &coverage.Options{Workers: *workers, MaxWords: *maxWords, Progress: func(done, _ int) { bar.Set(done) }})
		bar.Finish()
		if err != nil {
			return err
		}
		if *asJSON {
			out := coverageJSON{Variant: v.String(), All: rep.All.Recall(), BDLe2: rep.BDLe2.Recall(), BDEq2: rep.BDEq2.Recall(),
				Counts: coverageCounts{rep.All, rep.BDLe2, rep.BDEq2}, Sentences: rep.Sentences, Skipped: rep.Skipped, TooLong: rep.TooLong}
			if err := json.NewEncoder(stdout).Encode(out); err != nil {
				return err
			}
			continue
		}
		cell := func(c coverage.Counts) string { return fmt.Sprintf("%6.2f (%d/%d)", c.Recall(), c.Recovered, c.Total) }
		fmt.Fprintf(stdout, "%-11s %-24s %-24s %-24s\n", v, cell(rep.All), cell(rep.BDLe2), cell(rep.BDEq2))
		if rep.TooLong > 0 {
			fmt.Fprintf(stdout, "  (%d sentences longer than %d words were left out: --max-words)\n", rep.TooLong, *maxWords)
		}
		if rep.Skipped > 0 {
			fmt.Fprintf(stdout, "  (%d sentences exceeded the %s memory budget and count as not recovered)\n", rep.Skipped, v)
		}
	}
	return nil
}
