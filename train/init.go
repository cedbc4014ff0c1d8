package train

import (
	"fmt"
	"slices"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
)

// readInit reads the weights file path (Options.Init): its vocabulary is
// the run's, its one model the run's start (initFrom).
func readInit(path string) (*parser.Models, error) {
	ms, err := parser.ReadFiles(path)
	if err != nil {
		return nil, fmt.Errorf("train: initial model: %w", err)
	}
	return ms, nil
}

// initFrom copies the parameters of initial, the one model of the weights file
// path, into m and returns the file's tensor hash. The file must hold a
// single model of m's sizes, trained with vocabulary v.
func initFrom(m *network.Model, initial *parser.Models, path string, v *network.Vocab) (string, error) {
	f, models := initial.File, initial.Models
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
