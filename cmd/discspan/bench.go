package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/discspan/discspan/chart/decode"
)

func runBench(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "serve" {
		return runBenchServe(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "score" {
		return runBenchScore(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "onnx-export" {
		return runBenchONNXExport(args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "decode" {
		if len(args) > 0 && (args[0] == "--help" || args[0] == "-h") {
			fmt.Fprintln(stdout, "Usage: discspan bench decode [--json] --variant V --n N [--labels L] [--runs R]\n       discspan bench decode --table [--runs R] [--full]\n       discspan bench serve [--clients N] [--duration D] (load test of the weight downloads)\n       discspan bench score --input FILE [--weights W] [--backends cpu,webgpu] [--batch N] [--runs R] [--json] (network scoring speed per backend)\n       discspan bench onnx-export --out FILE [--weights W] [--member K] (one model as ONNX, for make bench-ort)")
			return nil
		}
		return fmt.Errorf("%w: want 'bench decode', 'bench serve', 'bench score' or 'bench onnx-export' (see discspan bench --help)", errUsage)
	}
	fs := newFlags("bench decode", "[--json] --variant V --n N [--labels L] [--runs R] | --table", stdout)
	variant := fs.String("variant", "n3", "decoder variant")
	n := fs.Int("n", 40, "sentence length")
	labels := fs.Int("labels", 30, "number of labels")
	runs := fs.Int("runs", 3, "runs; the best time is reported")
	asJSON := fs.Bool("json", false, "print JSON")
	table := fs.Bool("table", false, "print the comparison table with the reference C++ decoder (n = 20, 40, 80)")
	full := fs.Bool("full", false, "with --table: include n6 at n = 80 (one run of it, under a second)")
	maxMB := fs.Int64("max-mb", decode.DefaultMaxBytes>>20, "memory budget in MiB of the random scores and of the chart, each (larger sizes are refused before anything is generated)")
	rest, err := parseFlags(fs, args[1:])
	if err != nil {
		return err
	}
	if err := wantArgs(fs, rest, 0, "no positional arguments"); err != nil {
		return err
	}
	if *n < 0 || *labels < 1 || *runs < 1 {
		return fmt.Errorf("%w: --n must be >= 0, --labels and --runs >= 1", errUsage)
	}
	if *maxMB < 1 || *maxMB > maxChartMB {
		return fmt.Errorf("%w: --max-mb %d: want a budget of 1 to %d MiB", errUsage, *maxMB, maxChartMB)
	}
	if *table {
		return benchTable(stdout, *labels, *runs, *full)
	}
	v, err := decode.ParseVariant(*variant)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	res, err := decode.Bench(v, *n, *labels, *runs, &decode.Options{MaxBytes: *maxMB << 20})
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(res)
	}
	fmt.Fprintf(stdout, "%s n=%d labels=%d: %.3g s/sentence (best of %d), %.1f MB allocated\n",
		res.Variant, res.N, res.Labels, res.Seconds, res.Runs, float64(res.PeakBytes)/1e6)
	return nil
}

// benchTable measures every variant at n = 20, 40, 80 in one run and prints
// the ratio to the reference C++ figures.
func benchTable(stdout io.Writer, labels, runs int, full bool) error {
	fmt.Fprintf(stdout, "| variant | n | seconds/sentence | C++ reference | speed-up | MB allocated |\n|---|---|---|---|---|---|\n")
	for _, v := range decode.Variants {
		for _, n := range []int{20, 40, 80} {
			if n == 80 && v == decode.N6 && !full {
				continue
			}
			r := runs
			if n == 80 && v >= decode.N5WN {
				r = 1
			}
			res, err := decode.Bench(v, n, labels, r, nil)
			if err != nil {
				return err
			}
			ref, speedup := "-", "-"
			if s, ok := decode.ReferenceSeconds(v, n); ok {
				ref, speedup = fmt.Sprintf("%.2g", s), fmt.Sprintf("%.1fx", s/res.Seconds)
			}
			fmt.Fprintf(stdout, "| %s | %d | %.3g | %s | %s | %.1f |\n", v, n, res.Seconds, ref, speedup, float64(res.PeakBytes)/1e6)
		}
	}
	return nil
}
