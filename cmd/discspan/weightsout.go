package main

import (
	"fmt"
	"os"

	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/weights"
)

// checkWeightsOut refuses, before any work, an output weights file (the
// value of flag) that would replace something else: a name with a
// treebank's extension, or an existing file that is not a weights file (a
// treebank, a text). A weights file there (an earlier model, a resumed
// run's) may be replaced.
func checkWeightsOut(flag, path string) error {
	if _, err := treebank.FormatOf(path); err == nil {
		return fmt.Errorf("%w: --%s %s: a treebank's name; a weights file is written there (name it .safetensors)", errUsage, flag, path)
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return nil // missing (the write says what else is wrong)
	}
	if _, err := weights.ReadMeta(path); err != nil {
		return fmt.Errorf("%w: --%s %s exists and is not a weights file (%v): it is not replaced; remove it or choose another name", errUsage, flag, path, err)
	}
	return nil
}
