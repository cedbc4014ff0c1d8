package train

import (
	"fmt"
	"slices"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/weights"
)

// initLabelScore is what a label that the initial model lacks (the
// training data has it: Options.Init) scores below the span score when
// fine-tuning starts: low enough that the model does not predict it yet,
// and within reach of Adam's steps where the data has it (a score far
// below, as when parsing with such a model, would take millions of
// updates to lift).
const initLabelScore = -5

// readInit reads the weights file path (Options.Init): its vocabulary is
// the run's (with the training data's labels it lacks), its one model, or
// model member (1-based; 0: the file must hold one), the run's start
// (initFrom).
func readInit(path string, member int) (*parser.Models, error) {
	ms, err := parser.ReadFiles(path)
	if err != nil {
		return nil, fmt.Errorf("train: initial model: %w", err)
	}
	switch {
	case member < 0 || member > len(ms.Models):
		return nil, fmt.Errorf("train: --init-member %d: %s holds %d models (1 to %d)", member, path, len(ms.Models), len(ms.Models))
	case member > 0:
		ms.Models = ms.Models[member-1 : member]
	case len(ms.Models) != 1:
		return nil, fmt.Errorf("train: initial model %s is an ensemble of %d models; give one model, or choose one with --init-member", path, len(ms.Models))
	}
	return ms, nil
}

// InitialConfig returns the sizes and dropout rates of the model that
// Options.Init names (an ensemble file's members share them), from its
// header: with --init and no --preset, a --config file changes these, not
// the tiny preset's.
func InitialConfig(path string) (network.Config, error) {
	f, err := weights.ReadMeta(path)
	if err != nil {
		return network.Config{}, fmt.Errorf("train: initial model: %w", err)
	}
	return f.Meta.Config, nil
}

// initFrom copies the parameters of initial, the one model of the weights file
// path, into m and returns the file's tensor hash. The file must hold a
// single model of m's sizes, trained with vocabulary v, or with v less
// labels the training data added (withDataLabels), which start at
// initLabelScore.
func initFrom(m *network.Model, initial *parser.Models, path string, v *network.Vocab) (string, error) {
	f, models := initial.File, initial.Models
	at, err := initial.Vocab.LabelsIn(v)
	if err != nil {
		return "", fmt.Errorf("train: initial model %s was trained with another vocabulary than the training data gives: %w", path, err)
	}
	if len(models) != 1 {
		return "", fmt.Errorf("train: initial model %s is an ensemble of %d models; give one model", path, len(models))
	}
	src := models[0].Params
	if len(at) < len(v.Labels) {
		if src, err = src.WithLabels(at, len(v.Labels), initLabelScore); err != nil {
			return "", fmt.Errorf("train: initial model %s: %w", path, err)
		}
	}
	if got, want := src.Config().NoDropout(), m.Params.Config().NoDropout(); got != want {
		return "", fmt.Errorf("train: initial model %s has the sizes %+v, this run %+v (give the same --config)", path, got, want)
	}
	for _, dst := range m.Params.Tensors() {
		s := src.Get(dst.Name)
		if s == nil || !slices.Equal(s.Shape, dst.Shape) {
			return "", fmt.Errorf("train: initial model %s: tensor %s missing or of another shape", path, dst.Name)
		}
		copy(dst.Data, s.Data)
	}
	m.Params.Changed()
	return f.TensorsSHA256, nil
}
