package parser

import (
	"fmt"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/weights"
)

// FromFile returns a parser for a loaded weights file (its parameters, shared
// not copied, and its vocabulary). An ensemble file gives a parser whose
// Scorer averages its models on the CPU (Model is then the first of them).
func FromFile(f *weights.File) (*Parser, error) {
	models, err := f.Models()
	if err != nil {
		return nil, fmt.Errorf("parser: %w", err)
	}
	p, err := New(models[0], f.Meta.Vocab)
	if err != nil || len(models) == 1 {
		return p, err
	}
	p.Scorer = CPUEnsemble(models)
	return p, nil
}

// CPUEnsemble returns a Scorer averaging the models' outputs (see
// scorer.Mean), each computed by the CPU reference.
func CPUEnsemble(models []*network.Model) Scorer {
	return scorer.Forwarder{S: scorer.MeanCPU(models)}
}

// Load reads a weights file (see weights.ReadFile) and returns its parser.
func Load(path string) (*Parser, error) {
	f, err := weights.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("parser: %w", err)
	}
	return FromFile(f)
}
