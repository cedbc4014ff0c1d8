//go:build js || (cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64))))

package webgpu

import (
	"encoding/binary"
	"fmt"
	"math"
	"sync"
	"time"
	"unsafe"

	"github.com/cogentcore/webgpu/wgpu"
)

// callCounts counts a device's calls that shape the cost of a batch: queue
// submissions, buffer maps (every wait and read-back is one), dispatches
// and buffer writes (TestHardwareSchedule holds them to the schedule).
type callCounts struct {
	submits, maps, dispatches, writes int
}

// runJobs schedules jobs (see schedule) and runs every group, setting
// each job's out to its read-back.
func (s *Scorer) runJobs(jobs []*job) error {
	for _, g := range schedule(jobs, s.opts.SubmitWork, s.stagingCap, uploadLimit) {
		if err := s.runGroup(g); err != nil {
			return err
		}
	}
	return nil
}

// runGroup runs a group: one write of its uniforms and tables to the upload
// buffer; then, for each job in order, the copies of its uniforms and
// tables to the uniform and ints buffers, its dispatches (dispatch i with
// uniform slot i) in one compute pass, and the copy of its results from the
// out region to its place in the staging buffer; all in one submission
// (software: one more at each cut, each waited for before the next, so that
// none runs long), and one map of the staging buffer at the end, copied
// into each job's out. No CPU wait separates two chunks on a hardware
// adapter.
func (s *Scorer) runGroup(g *group) (err error) {
	for _, jb := range g.jobs {
		if len(jb.ds) > len(s.groups) {
			panic(fmt.Sprintf("webgpu: %d dispatches for %d uniform slots", len(jb.ds), len(s.groups)))
		}
		if len(jb.ints) > s.lay.ints || jb.outLen > s.lay.outCap {
			panic("webgpu: chunk larger than the layout")
		}
	}
	defer func() {
		if r := recover(); r != nil { // a JS exception on js
			err = unavailable(ErrDevice, "%v", r)
		}
	}()
	// Each job's results are allocated (and so cleared) in segments, each
	// on a goroutine of its own, while the device works (chunk.segments).
	outs := make([]results, len(g.jobs))
	var allocated sync.WaitGroup
	defer allocated.Wait() // after a failure too: no allocation outlives the call
	if g.outLen > 0 {
		for i, jb := range g.jobs {
			outs[i] = newResults(jb.segs, jb.fullLen, &allocated)
		}
	}
	s.d.pushScopes()
	start := time.Now()
	err = s.prepare(g)
	s.d.phases.Upload += time.Since(start)
	if err == nil {
		start = time.Now()
		err = s.record(g)
		s.d.phases.Record += time.Since(start)
	}
	if err == nil && g.outLen > 0 {
		start := time.Now()
		err = s.readResults(g, outs, &allocated)
		s.timed("last submission", "read-back", 0, start)
	} else if err == nil {
		err = s.waitIdle()
	}
	if perr := s.d.popScopes(); err == nil && perr != nil {
		err = unavailable(ErrDevice, "%v", perr)
	}
	if err == nil {
		err = s.d.lostError()
	}
	if err == nil { // readResults waited for the allocation
		for i, jb := range g.jobs {
			jb.out = outs[i]
		}
	}
	return err
}

// readResults waits for g's submissions and copies the staging buffer into
// outs, one slice per job (allocated once allocated is done) in the
// decoder's layout, each piece of the read-back to its place (the rows of
// the packed score blocks, the tags: job.pieces); where float32s are not
// stored as the device's bytes, it converts them first.
func (s *Scorer) readResults(g *group, outs []results, allocated *sync.WaitGroup) error {
	start := time.Now()
	allocated.Wait()
	s.d.phases.Alloc += time.Since(start)
	if !littleEndian {
		vals, err := s.readFloats(s.staging, g.outLen)
		for i, jb := range g.jobs {
			if err == nil {
				src := vals[jb.outAt:]
				for _, pc := range jb.pieces {
					src = src[copy(outs[i].slice(pc.at, pc.n), src):]
				}
			}
		}
		return err
	}
	var dsts [][]byte
	at := 0
	for i, jb := range g.jobs {
		if jb.outAt != at {
			panic("webgpu: a group's results are not back to back")
		}
		at += jb.outLen
		for _, pc := range jb.pieces {
			dsts = append(dsts, floatBytes(outs[i].slice(pc.at, pc.n)))
		}
	}
	return s.d.readInto(s.staging, dsts...)
}

// floatBytes returns the bytes of v (the device's little-endian float32s
// on a little-endian host).
func floatBytes(v []float32) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), 4*len(v))
}

// prepare grows the upload and staging buffers where g needs more (they
// keep their size for later batches) and writes g's uniforms and tables
// to the upload buffer.
func (s *Scorer) prepare(g *group) error {
	var err error
	if s.upload, s.uploadSize, err = s.grow(s.upload, s.uploadSize, g.upload, "upload", wgpu.BufferUsageCopySrc|wgpu.BufferUsageCopyDst); err != nil {
		return err
	}
	if s.staging, s.stagingSize, err = s.grow(s.staging, s.stagingSize, 4*g.outLen, "staging", wgpu.BufferUsageMapRead|wgpu.BufferUsageCopyDst); err != nil {
		return err
	}
	s.d.calls.writes++
	if err := s.d.queue.WriteBuffer(s.upload, 0, uploadBytes(g)); err != nil {
		return unavailable(ErrDevice, "writing uniforms and ids: %v", err)
	}
	return nil
}

// uploadBytes returns the contents of g's upload buffer: each job's
// uniform slots and ints at their places.
func uploadBytes(g *group) []byte {
	raw := make([]byte, g.upload)
	for _, jb := range g.jobs {
		for i, d := range jb.ds {
			copy(raw[jb.uniAt+i*uniformSlot:], d.params)
		}
		for i, v := range jb.ints {
			binary.LittleEndian.PutUint32(raw[jb.intsAt+4*i:], v)
		}
	}
	return raw
}

// grow returns buf when it holds size bytes, or a new buffer of at least
// size bytes (buf released).
func (s *Scorer) grow(buf *wgpu.Buffer, have, size int, label string, usage wgpu.BufferUsage) (*wgpu.Buffer, int, error) {
	if size <= have {
		return buf, have, nil
	}
	size = (size + 255) &^ 255
	nb, err := s.d.dev.CreateBuffer(&wgpu.BufferDescriptor{Label: label, Size: uint64(size), Usage: usage})
	if err != nil {
		return buf, have, unavailable(ErrDevice, "creating the %s buffer (%d bytes): %v", label, size, err)
	}
	buf.Destroy()
	buf.Release()
	return nb, size, nil
}

// record encodes and submits g's commands (see runGroup), ending a
// submission and waiting for it at each of g's cuts.
func (s *Scorer) record(g *group) (err error) {
	enc, err := s.newEncoder()
	if err != nil {
		return err
	}
	defer func() {
		if enc != nil { // not submitted: an error
			enc.Release()
		}
	}()
	next := 0 // the next cut
	work, start, from := 0.0, time.Now(), ""
	for j, jb := range g.jobs {
		if err := s.copyTables(enc, jb); err != nil {
			return err
		}
		for first := 0; first < len(jb.ds); {
			last := len(jb.ds)
			if next < len(g.cuts) && g.cuts[next].job == j {
				last = g.cuts[next].at
			}
			if last > first {
				if err := s.pass(enc, jb.ds, first, last); err != nil {
					return err
				}
				if from == "" {
					from = jb.ds[first].what
				}
				for _, d := range jb.ds[first:last] {
					work += d.work
				}
			}
			if last < len(jb.ds) { // a cut: submit, wait, go on in a new encoder
				err := s.submit(enc)
				if enc = nil; err == nil {
					err = s.waitIdle()
				}
				if err != nil {
					return err
				}
				s.timed(from, jb.ds[max(last-1, 0)].what, work, start)
				work, start, from = 0, time.Now(), ""
				next++
				if enc, err = s.newEncoder(); err != nil {
					return err
				}
			}
			first = last
		}
		if jb.outLen > 0 {
			if err := enc.CopyBufferToBuffer(s.arena, uint64(4*s.lay.out), s.staging, uint64(4*jb.outAt), uint64(4*jb.outLen)); err != nil {
				return unavailable(ErrDevice, "read-back copy: %v", err)
			}
		}
	}
	err = s.submit(enc)
	enc = nil
	return err
}

// newEncoder returns a new command encoder (nil with the error).
func (s *Scorer) newEncoder() (*wgpu.CommandEncoder, error) {
	enc, err := s.d.dev.CreateCommandEncoder(nil)
	if err != nil {
		return nil, unavailable(ErrDevice, "command encoder: %v", err)
	}
	return enc, nil
}

// copyTables records the copies of a job's uniforms and ints from the
// upload buffer.
func (s *Scorer) copyTables(enc *wgpu.CommandEncoder, jb *job) error {
	if n := jb.uniBytes(); n > 0 {
		if err := enc.CopyBufferToBuffer(s.upload, uint64(jb.uniAt), s.uniforms, 0, uint64(n)); err != nil {
			return unavailable(ErrDevice, "copying uniforms: %v", err)
		}
	}
	if n := 4 * len(jb.ints); n > 0 {
		if err := enc.CopyBufferToBuffer(s.upload, uint64(jb.intsAt), s.ints, 0, uint64(n)); err != nil {
			return unavailable(ErrDevice, "copying ids: %v", err)
		}
	}
	return nil
}

// pass records dispatches first..last-1 of ds in one compute pass.
func (s *Scorer) pass(enc *wgpu.CommandEncoder, ds []dispatch, first, last int) error {
	for _, d := range ds[first:last] {
		if s.pipes[d.kernel] == nil { // a plan for wider workgroups than the device has
			return unavailable(ErrDevice, "%s: %s (entry %s) has no pipeline on this device (workgroups of %d invocations)",
				d.what, kernelFiles[d.kernel], kernelEntries[d.kernel], s.opts.workgroupLimit)
		}
	}
	pass := enc.BeginComputePass(nil)
	for i := first; i < last; i++ {
		d := ds[i]
		pass.SetPipeline(s.pipes[d.kernel])
		pass.SetBindGroup(0, s.groups[i], nil)
		pass.DispatchWorkgroups(d.grid[0], d.grid[1], d.grid[2])
	}
	s.d.calls.dispatches += last - first
	err := endPass(pass)
	pass.Release() // before Finish: gfx-rs/wgpu#6145
	if err != nil {
		return unavailable(ErrDevice, "compute pass (%s .. %s): %v", ds[first].what, ds[last-1].what, err)
	}
	return nil
}

// submit finishes enc and submits it; enc is released.
func (s *Scorer) submit(enc *wgpu.CommandEncoder) error {
	defer enc.Release()
	cmd, err := enc.Finish(nil)
	if err != nil {
		return unavailable(ErrDevice, "finishing commands: %v", err)
	}
	// The command buffer is not released: wgpu-native v0.23.0 frees a
	// submitted buffer itself, and releasing it too corrupts later work.
	s.d.calls.submits++
	s.d.queue.Submit(cmd)
	return nil
}

// waitIdle waits for the submitted work by copying 4 bytes of the arena to
// the fence buffer and mapping it: the same wait on both backends, and no
// result in the staging buffer is touched.
func (s *Scorer) waitIdle() error {
	enc, err := s.newEncoder()
	if err != nil {
		return err
	}
	if err := enc.CopyBufferToBuffer(s.arena, 0, s.fence, 0, 4); err != nil {
		enc.Release()
		return unavailable(ErrDevice, "copy: %v", err)
	}
	if err := s.submit(enc); err != nil {
		return err
	}
	var b [4]byte
	return s.d.readInto(s.fence, b[:])
}

// littleEndian says whether float32s are stored as the device's (WebGPU's
// little-endian) bytes, so that a read-back is copied into them directly.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// readFloats reads the first n floats of buf (a MapRead buffer) into a new
// slice, waiting for the submissions that write it.
func (s *Scorer) readFloats(buf *wgpu.Buffer, n int) ([]float32, error) {
	out := make([]float32, n)
	if littleEndian {
		return out, s.d.readInto(buf, floatBytes(out))
	}
	raw, err := s.d.readBuffer(buf, uint64(4*n))
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return out, nil
}

// readBuffer returns a copy of the first size bytes of buf (a MapRead
// buffer), waiting for the submissions that write it.
func (d *device) readBuffer(buf *wgpu.Buffer, size uint64) ([]byte, error) {
	out := make([]byte, size)
	if err := d.readInto(buf, out); err != nil {
		return nil, err
	}
	return out, nil
}

// timed reports a submission's duration to the test hook, if any.
func (s *Scorer) timed(from, to string, work float64, start time.Time) {
	if s.onSubmit != nil {
		s.onSubmit(from+" .. "+to, work, time.Since(start))
	}
}
