package netcuda

import (
	"fmt"
	"os"
	"testing"

	"github.com/discspan/discspan/cuda/cudaemu"
)

// TestMain runs the tests on the GPU where the NVIDIA driver is installed,
// and otherwise on the CPU stand-in of package cudaemu (CI).
func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "cudaemu")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if _, err := cudaemu.Install(dir); err != nil {
		fmt.Fprintf(os.Stderr, "netcuda: %v; the tests that need a device will skip\n", err)
	}
	return m.Run()
}
