package webgpu

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"
)

// run executes the dispatches ds (dispatch i with uniform slot i) with the
// ints table and returns the first outLen floats of the out region (none
// when outLen is 0). The uniforms and ints are written once; the
// dispatches go in consecutive submissions of at most s.opts.SubmitWork
// estimated work each, every one waited for before the next, so that none
// runs long enough for a native Device.Poll to give up.
func (s *Scorer) run(ds []dispatch, ints []uint32, outLen int) (vals []float32, err error) {
	if len(ds) > len(s.groups) {
		panic(fmt.Sprintf("webgpu: %d dispatches for %d uniform slots", len(ds), len(s.groups)))
	}
	if len(ints) > s.lay.ints || outLen > s.lay.outCap {
		panic("webgpu: chunk larger than the layout")
	}
	defer func() {
		if r := recover(); r != nil { // a JS exception on js
			vals, err = nil, unavailable(ErrDevice, "%v", r)
		}
	}()
	s.d.pushScopes()
	err = s.upload(ds, ints)
	for first := 0; err == nil && first < len(ds); {
		last, work := first+1, ds[first].work
		for last < len(ds) && work+ds[last].work <= s.opts.SubmitWork {
			work += ds[last].work
			last++
		}
		final := last == len(ds)
		copyOut := 0
		if final {
			copyOut = outLen
		}
		start := time.Now()
		err = s.submit(ds, first, last, copyOut)
		if err == nil && !final {
			err = s.waitIdle()
			s.timed(ds[first].what, ds[last-1].what, work, start)
		}
		first = last
	}
	if err == nil && outLen > 0 {
		start := time.Now()
		var raw []byte
		raw, err = s.d.readBuffer(s.staging, uint64(4*outLen))
		s.timed("last submission", "read-back", 0, start)
		if err == nil {
			vals = make([]float32, outLen)
			for i := range vals {
				vals[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
			}
		}
	} else if err == nil {
		err = s.waitIdle()
	}
	if perr := s.d.popScopes(); err == nil && perr != nil {
		err = unavailable(ErrDevice, "%v", perr)
	}
	if err == nil {
		err = s.d.lostError()
	}
	return vals, err
}

// upload writes the uniform parameters of ds and the ints table.
func (s *Scorer) upload(ds []dispatch, ints []uint32) error {
	q := s.d.queue
	uni := make([]byte, uniformSlot*len(ds))
	for i, d := range ds {
		copy(uni[i*uniformSlot:], d.params)
	}
	if err := q.WriteBuffer(s.uniforms, 0, uni); err != nil {
		return unavailable(ErrDevice, "writing uniforms: %v", err)
	}
	if len(ints) > 0 {
		raw := make([]byte, 4*len(ints))
		for i, v := range ints {
			binary.LittleEndian.PutUint32(raw[4*i:], v)
		}
		if err := q.WriteBuffer(s.ints, 0, raw); err != nil {
			return unavailable(ErrDevice, "writing ids: %v", err)
		}
	}
	return nil
}

// submit records dispatches first..last-1 of ds in one compute pass, then
// the copy of the first copyOut floats of the out region to the staging
// buffer, and submits them.
func (s *Scorer) submit(ds []dispatch, first, last, copyOut int) error {
	enc, err := s.d.dev.CreateCommandEncoder(nil)
	if err != nil {
		return unavailable(ErrDevice, "command encoder: %v", err)
	}
	defer enc.Release()
	pass := enc.BeginComputePass(nil)
	for i := first; i < last; i++ {
		d := ds[i]
		pass.SetPipeline(s.pipes[d.kernel])
		pass.SetBindGroup(0, s.groups[i], nil)
		pass.DispatchWorkgroups(d.grid[0], d.grid[1], d.grid[2])
	}
	err = endPass(pass)
	pass.Release() // before Finish: gfx-rs/wgpu#6145
	if err != nil {
		return unavailable(ErrDevice, "compute pass (%s .. %s): %v", ds[first].what, ds[last-1].what, err)
	}
	if copyOut > 0 {
		if err := enc.CopyBufferToBuffer(s.arena, uint64(4*s.lay.out), s.staging, 0, uint64(4*copyOut)); err != nil {
			return unavailable(ErrDevice, "read-back copy: %v", err)
		}
	}
	cmd, err := enc.Finish(nil)
	if err != nil {
		return unavailable(ErrDevice, "finishing commands: %v", err)
	}
	// The command buffer is not released: wgpu-native v0.23.0 frees a
	// submitted buffer itself, and releasing it too corrupts later work.
	s.d.queue.Submit(cmd)
	return nil
}

// waitIdle waits for the submitted work by reading back 4 bytes of the out
// region (a copy after the work, then a map): the same wait on both
// backends.
func (s *Scorer) waitIdle() error {
	enc, err := s.d.dev.CreateCommandEncoder(nil)
	if err != nil {
		return unavailable(ErrDevice, "command encoder: %v", err)
	}
	defer enc.Release()
	if err := enc.CopyBufferToBuffer(s.arena, uint64(4*s.lay.out), s.staging, 0, 4); err != nil {
		return unavailable(ErrDevice, "copy: %v", err)
	}
	cmd, err := enc.Finish(nil)
	if err != nil {
		return unavailable(ErrDevice, "finishing commands: %v", err)
	}
	s.d.queue.Submit(cmd)
	_, err = s.d.readBuffer(s.staging, 4)
	return err
}

// timed reports a submission's duration to the test hook, if any.
func (s *Scorer) timed(from, to string, work float64, start time.Time) {
	if s.onSubmit != nil {
		s.onSubmit(from+" .. "+to, work, time.Since(start))
	}
}
