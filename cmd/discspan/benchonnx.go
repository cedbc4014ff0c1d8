package main

import (
	"fmt"
	"io"
	"os"

	"github.com/discspan/discspan/bench/onnxexport"
)

// runBenchONNXExport writes one model as ONNX (package bench/onnxexport),
// the model that make bench-ort times ONNX Runtime Web on.
func runBenchONNXExport(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench onnx-export", "--out FILE [--weights W] [--member K]", stdout)
	weightsPath := fs.String("weights", "", "weights file (default: the shipped default model, embedded)")
	out := fs.String("out", "", "the ONNX file to write (required)")
	member := fs.Int("member", 1, "with an ensemble: the model to export, from 1 (as train --init-member)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, rest, 0, "no positional arguments (use --out)"); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("%w: --out is required", errUsage)
	}
	ms, err := loadModels(*weightsPath)
	if err != nil {
		return fmt.Errorf("loading --weights: %w", err)
	}
	if *member < 1 || *member > len(ms.Models) {
		return fmt.Errorf("%w: --member %d: %s has %d model(s), counted from 1", errUsage, *member, ms.Name, len(ms.Models))
	}
	data, err := onnxexport.Export(ms.Models[*member-1].Params)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		return fmt.Errorf("writing --out: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s (%d bytes): model %d of %d of %s as ONNX (opset 17; inputs word_ids, char_ids, char_lens; outputs cont, disc, gap, tags)\n",
		*out, len(data), *member, len(ms.Models), ms.Name)
	return nil
}
