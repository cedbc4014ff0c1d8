package browser

import (
	"errors"
	"fmt"
	"testing"

	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/webgpu"
)

// The errors of WebGPU's set-up keep their message and their own matches,
// and match the parser's reason for not using WebGPU.
func TestClassifyGPUError(t *testing.T) {
	selfCheck := fmt.Errorf("webgpu: %w on NVIDIA X: largest difference from the CPU reference 3.2 at batch 1 sentence 2 cont scores", webgpu.ErrSelfCheck)
	other := errors.New("webgpu: no adapter")
	tests := []struct {
		name   string
		err    error
		reason error // nil: none
	}{
		{"self-check", selfCheck, parser.ErrSelfCheck},
		{"other", other, nil},
	}
	for _, tc := range tests {
		got := classifyGPUError(tc.err)
		if got.Error() != tc.err.Error() || !errors.Is(got, tc.err) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.err)
		}
		if tc.reason != nil && !errors.Is(got, tc.reason) || errors.Is(got, parser.ErrSelfCheck) != (tc.reason == parser.ErrSelfCheck) {
			t.Errorf("%s: matches the self-check: %v, want %v", tc.name, errors.Is(got, parser.ErrSelfCheck), tc.reason)
		}
	}
	if err := (classified{other, parser.ErrNoAdapter}); !errors.Is(err, parser.ErrNoAdapter) || !errors.Is(err, other) || err.Error() != other.Error() {
		t.Errorf("no adapter: %v", err)
	}
}
