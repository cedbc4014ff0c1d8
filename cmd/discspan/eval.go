package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/discspan/discspan/chart/eval"
	"github.com/discspan/discspan/chart/treebank"
)

func runEval(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", "[--json] [--verbose] [--labels] [--prm FILE] GOLD PRED", stdout)
	asJSON := fs.Bool("json", false, `print {"all":{...},"le40":{...}} as JSON`)
	verbose := fs.Bool("verbose", false, "also print the per-sentence table")
	labels := fs.Bool("labels", false, "also print the per-label table (recall, precision and F1 of each label)")
	prm := fs.String("prm", "", "evaluation parameter file (default: disco-dop's proper.prm)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, rest, 2, "GOLD and PRED files"); err != nil {
		return err
	}
	params := eval.ProperPrm()
	if *prm != "" {
		f, err := os.Open(*prm)
		if err != nil {
			return err
		}
		params, err = eval.ParseParams(f, *prm)
		f.Close()
		if err != nil {
			return err
		}
	}
	gold, err := treebank.ReadFile(rest[0])
	if err != nil {
		return err
	}
	cand, err := treebank.ReadFile(rest[1])
	if err != nil {
		return err
	}
	res, err := eval.Evaluate(gold, cand, params)
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(map[string]eval.Summary{"all": res.All, "le40": res.Le40})
	}
	if *verbose {
		fmt.Fprint(stdout, eval.FormatSentences(res))
	}
	if *labels {
		fmt.Fprint(stdout, eval.FormatLabels(res))
	}
	fmt.Fprint(stdout, eval.FormatSummary(res))
	return nil
}
