package netcuda

import (
	"os"
	"testing"

	"github.com/discspan/discspan/cuda/cudaemu"
)

// TestMain runs the tests on the GPU where the NVIDIA driver is installed,
// and otherwise on the CPU stand-in of package cudaemu (CI).
func TestMain(m *testing.M) { os.Exit(cudaemu.RunTests(m)) }
