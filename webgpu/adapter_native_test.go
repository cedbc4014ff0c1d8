//go:build !js && cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64)))

package webgpu

import (
	"sync"
	"testing"

	"github.com/cogentcore/webgpu/wgpu"
)

// probedAdapter is the adapter the tests would run on, asked for once.
var probedAdapter = sync.OnceValues(func() (AdapterInfo, error) { return ProbeAdapter(Options{}) })

// skipSlowAdapter skips a test that runs kernels when the only adapter is
// a software rasteriser behind wgpu's OpenGL backend (Mesa's llvmpipe,
// which a desktop or a browser's packages bring without Mesa's Vulkan
// driver): the kernels are right there but this package's tests, minutes on
// lavapipe, take more than half an hour, past go test's time limit. The
// reason names the package that gives them lavapipe; with it installed,
// wgpu takes the Vulkan adapter and the tests run.
func skipSlowAdapter(tb testing.TB) {
	tb.Helper()
	info, err := probedAdapter()
	if err == nil && info.Software && info.Backend == wgpu.BackendTypeOpenGL.String() {
		tb.Skipf("the only WebGPU adapter is %s, on which these tests take more than half an hour: install Mesa's Vulkan driver (apt-get install -y mesa-vulkan-drivers libvulkan1) to run them on lavapipe", info)
	}
}
