package browser

import (
	"errors"
	"testing"
)

func TestNoAdapter(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"none offered", nil, "no WebGPU adapter: the browser offers none (no usable GPU, or WebGPU blocked for it)"},
		{"browser error", errors.New("OperationError: adapter lost"), "no WebGPU adapter: OperationError: adapter lost"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := noAdapter(tc.err).Error(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
