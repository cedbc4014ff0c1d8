package browser

import (
	"errors"
	"fmt"
)

// noAdapter is the error for a requestAdapter that gave no adapter: with
// the browser's error when it threw one, else the reason it gives none.
func noAdapter(err error) error {
	if err != nil {
		return fmt.Errorf("no WebGPU adapter: %v", err)
	}
	return errors.New("no WebGPU adapter: the browser offers none (no usable GPU, or WebGPU blocked for it)")
}
