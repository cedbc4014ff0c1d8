package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/internal/cli"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/train"
	"github.com/discspan/discspan/weights"
)

// Limits of ensemble --choose: it keeps every model's dev scores in memory
// (about 90 MB a model for the Alpino dev set with 28 labels) and decodes
// the dev set once per combination.
const (
	maxChooseCombinations = 500
	maxChooseScoreBytes   = 4 << 30
)

// memberNames names every model of the files: the file's path, followed
// by " (model j of m)" for a file that holds an ensemble of m.
func memberNames(paths []string) ([]string, error) {
	var names []string
	for _, path := range paths {
		f, err := weights.ReadMeta(path)
		if err != nil {
			return nil, err
		}
		if f.Ensemble == 1 {
			names = append(names, path)
			continue
		}
		for j := range f.Ensemble {
			names = append(names, fmt.Sprintf("%s (model %d of %d)", path, j+1, f.Ensemble))
		}
	}
	return names, nil
}

// combinations returns every k-subset of 0..n-1, each in increasing order.
func combinations(n, k int) [][]int {
	var out [][]int
	var pick func(start int, cur []int)
	pick = func(start int, cur []int) {
		if len(cur) == k {
			out = append(out, slices.Clone(cur))
			return
		}
		for i := start; i <= n-(k-len(cur)); i++ {
			pick(i+1, append(cur, i))
		}
	}
	pick(0, nil)
	return out
}

// binomial returns n choose k, saturating at limit+1 (k <= n).
func binomial(n, k, limit int) int {
	c := 1
	for i := 1; i <= k; i++ {
		c = c * (n - k + i) / i
		if c > limit {
			return limit + 1
		}
	}
	return c
}

// chosenEnsemble is one row of ensemble --choose's report.
type chosenEnsemble struct {
	members  []int
	f1, disc float64
}

// chooseEnsembles scores the dev treebank gold once with each model (as the
// file would store it), then reports the dev F1 of every combination of k
// of them, best first: each combination's mean is taken by scorer.Mean on
// the recorded scores, so it is what an ensemble file of those models
// (ensemble --out ... with the same --dtype and --drop-labels) scores.
func chooseEnsembles(w io.Writer, devPath string, gold []*tree.Tree, models []*network.Model, v *network.Vocab, names []string, k, workers int) error {
	n := len(models)
	if len(names) != n {
		return fmt.Errorf("ensemble --choose: %d names for %d models", len(names), n)
	}
	if k < 1 || k > n {
		return fmt.Errorf("%w: --choose %d of %d models", errUsage, k, n)
	}
	if c := binomial(n, k, maxChooseCombinations); c > maxChooseCombinations {
		return fmt.Errorf("%w: --choose %d of %d models: more than %d combinations", errUsage, k, n, maxChooseCombinations)
	}
	labels := len(v.Labels)
	var perModel int64
	for _, t := range gold {
		perModel += int64(t.Len()) * int64(t.Len()) * int64(labels) * 3 * 4
	}
	if total := perModel * int64(n); total > maxChooseScoreBytes {
		return fmt.Errorf("%w: --choose would keep %d MiB of dev scores (%d models of %d MiB), more than %d MiB: name fewer models or a smaller dev set",
			errUsage, total>>20, n, perModel>>20, maxChooseScoreBytes>>20)
	}
	ctx := context.Background()
	evaluate := func(s scorer.Scorer) (float64, float64, error) {
		p, err := parser.New(models[0], v)
		if err != nil {
			return 0, 0, err
		}
		p.Scorer = s
		res, err := train.EvaluateParser(ctx, p, gold, train.DevVariant, workers)
		if err != nil {
			return 0, 0, err
		}
		return res.All.F1, res.All.DiscF1, nil
	}
	fmt.Fprintf(w, "%s, %s decoder:\n", devPath, train.DevVariant)
	recorded := make([][]network.Output, n)
	for i, m := range models {
		r := &scorer.Recorder{Scorer: scorer.NewCPU(m)}
		f1, disc, err := evaluate(r)
		if err != nil {
			return fmt.Errorf("%s: %w", names[i], err)
		}
		recorded[i] = r.Recorded()
		fmt.Fprintf(w, "  %-40s dev F1 %6.2f  disc. F1 %6.2f\n", names[i], f1, disc)
	}
	var rows []chosenEnsemble
	combos := combinations(n, k)
	bar := cli.NewProgress(len(combos), fmt.Sprintf("ensembles of %d evaluated", k))
	defer bar.Finish()
	for done, c := range combos {
		members := make([]scorer.Scorer, len(c))
		for j, i := range c {
			members[j] = &scorer.Replay{Results: recorded[i], Copy: true} // Mean sums into its first member's results
		}
		f1, disc, err := evaluate(scorer.Mean(members...))
		if err != nil {
			return err
		}
		rows = append(rows, chosenEnsemble{c, f1, disc})
		bar.Set(done + 1)
	}
	slices.SortStableFunc(rows, func(a, b chosenEnsemble) int {
		switch {
		case a.f1 > b.f1:
			return -1
		case a.f1 < b.f1:
			return 1
		}
		return 0
	})
	fmt.Fprintf(w, "ensembles of %d, best first (dev F1, disc. F1, models):\n", k)
	for _, r := range rows {
		parts := make([]string, len(r.members))
		for j, i := range r.members {
			parts[j] = names[i]
		}
		fmt.Fprintf(w, "  %6.2f  %6.2f  %s\n", r.f1, r.disc, strings.Join(parts, " + "))
	}
	return nil
}
