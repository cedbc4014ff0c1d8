package weights

import (
	_ "embed" // the shipped default model
	"fmt"
	"os"
	"path/filepath"
)

// defaultModel is the shipped default model, embedded in every binary: an
// ensemble of two small-preset models trained separately by discspan train
// on Alpino cdb train plus the Alpino suites and combined by discspan
// ensemble (4-bit matrices, I4). The repository's weights/fast.safetensors,
// the previous default (two tiny-preset models, int8), is served beside it
// but not embedded.
//
//go:embed default.safetensors
var defaultModel []byte

// DefaultName is the name of the shipped default weights file.
const DefaultName = "default.safetensors"

// DefaultBytes returns the bytes of the shipped default weights file.
func DefaultBytes() []byte { return defaultModel }

// Default reads the shipped default model.
func Default() (*File, error) { return Read(defaultModel, DefaultName+" (embedded)") }

// WriteDefault writes the shipped default model into dir as DefaultName
// (for a program that offers weight files by path, such as discspan serve
// run outside the repository) and returns the file's path.
func WriteDefault(dir string) (string, error) {
	p := filepath.Join(dir, DefaultName)
	if err := os.WriteFile(p, defaultModel, 0o644); err != nil {
		return "", fmt.Errorf("weights: writing the embedded default model: %w", err)
	}
	return p, nil
}
