//go:build !js && cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64)))

package webgpu

import (
	"fmt"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/cogentcore/webgpu/wgpu"
)

// device is the native backend's adapter and device (wgpu-native over
// Vulkan, Metal or DX12; lavapipe where there is no GPU).
type device struct {
	instance *wgpu.Instance
	adapter  *wgpu.Adapter
	dev      *wgpu.Device
	queue    *wgpu.Queue
	info     AdapterInfo
	f16      bool // the shader-f16 feature is enabled
	// timestamps: the timestamp-query feature is enabled (Options.timestamps)
	timestamps bool
	// bindingLimit is the storage binding and buffer size the device was
	// created with (see largeStorageLimit).
	bindingLimit int
	calls        callCounts
	phases       Phases // Wait and Copy are set here, the rest by the Scorer
}

// nativeShaderF16 says whether to use the shader-f16 feature natively: no,
// since the WGSL compiler of wgpu-native v0.23.0 (naga) refuses
// "enable f16" (and logs a parse error for every attempt); float16 weights
// are unpacked with unpack2x16float instead.
const nativeShaderF16 = false

// ProbeAdapter requests the adapter New would use and describes it,
// without opening a device or compiling anything: a caller can skip a
// software adapter (AdapterInfo.Software) before paying for the kernels
// and the self-check. Its error matches ErrNoAdapter and
// scorer.ErrUnavailable.
func ProbeAdapter(o Options) (AdapterInfo, error) {
	inst, ad, info, err := requestAdapter(o)
	if err != nil {
		return AdapterInfo{}, err
	}
	ad.Release()
	inst.Release()
	return info, nil
}

// requestAdapter creates an instance and requests the high-performance
// adapter (the fallback one with o.ForceFallbackAdapter).
func requestAdapter(o Options) (inst *wgpu.Instance, ad *wgpu.Adapter, info AdapterInfo, err error) {
	defer func() {
		if r := recover(); r != nil { // CreateInstance panics when it fails
			err = unavailable(ErrNoAdapter, "%v", r)
		}
	}()
	// A nil descriptor: v0.23.0 mallocs the instance extras without
	// zeroing the fields it does not set (garbage GL version, flags).
	inst = wgpu.CreateInstance(nil)
	ad, err = inst.RequestAdapter(&wgpu.RequestAdapterOptions{
		ForceFallbackAdapter: o.ForceFallbackAdapter,
		PowerPreference:      wgpu.PowerPreferenceHighPerformance,
	})
	if err != nil {
		inst.Release()
		return nil, nil, AdapterInfo{}, unavailable(ErrNoAdapter, "%v", err)
	}
	gi := ad.GetInfo()
	name := gi.DriverDescription // lavapipe's device name is "0x0"
	if name == "" {
		name = gi.Name
	}
	return inst, ad, AdapterInfo{
		Name:     name,
		Driver:   gi.VendorName,
		Backend:  gi.BackendType.String(),
		Type:     gi.AdapterType.String(),
		Software: gi.AdapterType == wgpu.AdapterTypeCPU,
	}, nil
}

// openDevice requests an adapter and a device, with shader-f16 when the
// weights are float16, the adapter has it, o allows it and the compiler
// supports it (see nativeShaderF16). wgpu-native's
// Create* calls report validation errors themselves (each runs in an error
// scope), so the native device needs no scopes of its own.
func openDevice(o Options) (d *device, err error) {
	inst, ad, info, err := requestAdapter(o)
	if err != nil {
		return nil, err
	}
	d = &device{instance: inst, adapter: ad, info: info}
	var feats []wgpu.FeatureName
	if nativeShaderF16 && o.Weights == WeightsF16 && !o.NoShaderF16 && ad.HasFeature(wgpu.FeatureNameShaderF16) {
		feats = append(feats, wgpu.FeatureNameShaderF16)
		d.f16 = true
	}
	if o.timestamps && ad.HasFeature(wgpu.FeatureNameTimestampQuery) {
		feats = append(feats, wgpu.FeatureNameTimestampQuery)
		d.timestamps = true
	}
	desc := &wgpu.DeviceDescriptor{Label: "discspan scorer", RequiredFeatures: feats}
	// Ask for bindings and buffers of up to largeStorageLimit and
	// workgroups of up to splitLoopWidth invocations as the adapter allows
	// (never below WebGPU's defaults, which every adapter has), every other
	// limit at its default.
	al := ad.GetLimits().Limits
	limits := wgpu.DefaultLimits()
	want := uint64(largeStorageLimit)
	if o.storageWanted > 0 {
		want = uint64(o.storageWanted)
	}
	limits.MaxStorageBufferBindingSize = max(storageLimit, min(al.MaxStorageBufferBindingSize, want))
	limits.MaxBufferSize = max(2*storageLimit, min(al.MaxBufferSize, want))
	// (DefaultLimits leaves these undefined, that is, defaultWorkgroupLimit.)
	limits.MaxComputeInvocationsPerWorkgroup = max(defaultWorkgroupLimit, min(al.MaxComputeInvocationsPerWorkgroup, splitLoopWidth))
	limits.MaxComputeWorkgroupSizeX = max(defaultWorkgroupLimit, min(al.MaxComputeWorkgroupSizeX, splitLoopWidth))
	desc.RequiredLimits = &wgpu.RequiredLimits{Limits: limits}
	d.bindingLimit = int(min(limits.MaxStorageBufferBindingSize, limits.MaxBufferSize))
	d.info.Workgroup = int(min(limits.MaxComputeInvocationsPerWorkgroup, limits.MaxComputeWorkgroupSizeX))
	dev, err := ad.RequestDevice(desc)
	if err != nil {
		ad.Release()
		inst.Release()
		return nil, unavailable(ErrNoAdapter, "device request: %v", err)
	}
	d.dev = dev
	d.queue = dev.GetQueue()
	return d, nil
}

// pushScopes does nothing natively (see openDevice).
func (d *device) pushScopes() {}

// popScopes returns nil natively (see openDevice).
func (d *device) popScopes() error { return nil }

// shaderDiagnostics returns nothing natively: the compilation error comes
// back from CreateShaderModule with its positions.
func (d *device) shaderDiagnostics(name, code string, snippetLines int) string { return "" }

// compilerLog says where wgpu-native's compiler messages went: its errors
// carry only "Validation Error", the details go to its log.
func (d *device) compilerLog() string { return " (wgpu logs the details on stderr)" }

// lostError returns nil: native device loss shows up as errors of the
// calls themselves.
func (d *device) lostError() error { return nil }

// endPass ends a compute pass, returning its validation error.
func endPass(p *wgpu.ComputePassEncoder) error { return p.End() }

// pollLimit bounds the wait for one submission.
const pollLimit = 120 * time.Second

// spinWait is how long a wait polls without sleeping (a small batch's
// latency), and maxPollSleep the longest sleep between polls after it.
const (
	spinWait     = time.Millisecond
	maxPollSleep = time.Millisecond
)

// wait polls the device until done() or pollLimit, never blocking in
// Device.Poll: a blocking poll gives up after 5 s, and wgpu-native v0.23.0
// then fails the device while lavapipe still runs the submission, which
// crashed it (a single 9 s submission of the Alpino test set,
// TestHardwareSchedule). It spins for spinWait, then sleeps between polls,
// from 50 µs doubling up to maxPollSleep.
func (d *device) wait(done func() bool) error {
	start := time.Now()
	sleep := 50 * time.Microsecond
	for {
		d.dev.Poll(false, nil)
		if done() {
			return nil
		}
		waited := time.Since(start)
		switch {
		case waited > pollLimit:
			return unavailable(ErrDevice, "submission not finished after %v", pollLimit)
		case waited < spinWait:
			runtime.Gosched()
		default:
			time.Sleep(sleep)
			sleep = min(2*sleep, maxPollSleep)
		}
	}
}

// readInto maps the first bytes of buf (a MapRead buffer), as many as the
// dsts hold together, waits for the mapping (and so for the submissions
// that write buf) and copies them into the dsts in order.
func (d *device) readInto(buf *wgpu.Buffer, dsts ...[]byte) error {
	size := 0
	for _, dst := range dsts {
		size += len(dst)
	}
	d.calls.maps++
	start := time.Now()
	done := false
	var status wgpu.BufferMapAsyncStatus
	if err := buf.MapAsync(wgpu.MapModeRead, 0, uint64(size), func(s wgpu.BufferMapAsyncStatus) {
		status, done = s, true
	}); err != nil {
		return unavailable(ErrDevice, "map: %v", err)
	}
	if err := d.wait(func() bool { return done }); err != nil {
		return err
	}
	if status != wgpu.BufferMapAsyncStatusSuccess {
		return unavailable(ErrDevice, "map: %v", status)
	}
	d.phases.Wait += time.Since(start)
	start = time.Now()
	copyParallel(dsts, buf.GetMappedRange(0, uint(size))) // a view of the mapping natively: one copy
	d.phases.Copy += time.Since(start)
	if err := buf.Unmap(); err != nil {
		return unavailable(ErrDevice, "unmap: %v", err)
	}
	return nil
}

// copyParallel copies src into the dsts, back to back, on up to GOMAXPROCS
// goroutines, each over a contiguous range of src of about equal size (at
// least copyPart bytes): one core's copy bandwidth would bound a large
// read-back (57 MiB for the Alpino test set), and its dsts are many (a
// packed row of a score block each: 43,000 for the test set).
func copyParallel(dsts [][]byte, src []byte) {
	starts := make([]int, len(dsts)+1) // starts[k]: dsts[k]'s offset in src
	for k, dst := range dsts {
		starts[k+1] = starts[k] + len(dst)
	}
	total := starts[len(dsts)]
	workers := min(runtime.GOMAXPROCS(0), total/copyPart)
	if workers < 2 {
		copyRange(dsts, starts, src, 0, total)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			copyRange(dsts, starts, src, total*w/workers, total*(w+1)/workers)
		}()
	}
	wg.Wait()
}

// copyPart is the least bytes copyParallel gives a goroutine.
const copyPart = 1 << 20

// copyRange copies src[lo:hi] to the parts of the dsts it covers (starts:
// the dsts' offsets in src, and the total).
func copyRange(dsts [][]byte, starts []int, src []byte, lo, hi int) {
	k := sort.Search(len(dsts), func(i int) bool { return starts[i+1] > lo })
	for ; k < len(dsts) && starts[k] < hi; k++ {
		a, b := max(lo, starts[k]), min(hi, starts[k+1])
		copy(dsts[k][a-starts[k]:b-starts[k]], src[a:b])
	}
}

// release frees the device, adapter and instance.
func (d *device) release() {
	d.queue.Release()
	d.dev.Release()
	d.adapter.Release()
	d.instance.Release()
}

// String describes the adapter.
func (d *device) String() string {
	return fmt.Sprintf("%s (%s, %s)", d.info.Name, d.info.Backend, d.info.Type)
}
