package webgpu

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
}
