package webgpu

import (
	"fmt"
	"os"
	"path/filepath"
)

// AdapterInfo describes the adapter a Scorer runs on, without WebGPU types.
// In the browser the fields may be empty (navigator.gpu reveals little).
type AdapterInfo struct {
	Name    string // adapter or device name
	Driver  string // driver description
	Backend string // "vulkan", "metal", "webgpu", ...
	Type    string // "discrete-gpu", "integrated-gpu", "cpu", ...
	// Software is set for CPU (software) adapters such as lavapipe or
	// SwiftShader: correct but slow, usually slower than the CPU backend.
	Software bool
	// Workgroup is the most invocations of one workgroup the device was
	// opened with: WebGPU's default 256, or up to 1024 where the adapter
	// allows it (the LSTM loops of small chunks then split each unit's
	// sum over several invocations).
	Workgroup int
}

// String names the adapter: name, backend and type, and whether it is a
// software one.
func (a AdapterInfo) String() string {
	d := fmt.Sprintf("%s (%s, %s)", a.Name, a.Backend, a.Type)
	if a.Software {
		d += ", software"
	}
	return d
}

// VulkanDriverInstalled reports whether a Vulkan driver (ICD) is installed
// here, named by VK_ICD_FILENAMES / VK_DRIVER_FILES or in the loader's
// usual folders. Tests use it to tell "no GPU here" (skip) from "a GPU that
// fails" (failure).
func VulkanDriverInstalled() bool {
	if os.Getenv("VK_ICD_FILENAMES") != "" || os.Getenv("VK_DRIVER_FILES") != "" {
		return true
	}
	for _, dir := range []string{"/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d", "/usr/local/share/vulkan/icd.d"} {
		if m, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(m) > 0 {
			return true
		}
	}
	return false
}
