package train

import (
	"fmt"
	"slices"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
)

// initVocab returns the vocabulary of the weights file path (Options.Init),
// which the run keeps.
func initVocab(path string) (*network.Vocab, error) {
	ms, err := parser.ReadFiles(path)
	if err != nil {
		return nil, fmt.Errorf("train: initial model: %w", err)
	}
	return ms.Vocab, nil
}

// initFrom copies the parameters of the one model in the weights file path
// into m (Options.Init) and returns the file's tensor hash. The file must
// hold a single model of m's sizes, trained with vocabulary v.
func initFrom(m *network.Model, path string, v *network.Vocab) (string, error) {
	ms, err := parser.ReadFiles(path)
	if err != nil {
		return "", fmt.Errorf("train: initial model: %w", err)
	}
	f, models := ms.File, ms.Models
	if err := v.SameAs(f.Meta.Vocab); err != nil {
		return "", fmt.Errorf("train: initial model %s was trained with another vocabulary than the training data gives: %w", path, err)
	}
	if len(models) != 1 {
		return "", fmt.Errorf("train: initial model %s is an ensemble of %d models; give one model", path, len(models))
	}
	src := models[0].Params
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
