package webgpu

import (
	"fmt"
	"time"
)

// Phases is where a scorer's time went, summed over its Score calls since
// it was built or since ResetPhases (bench score reports it per pass):
// planning the chunks and their dispatches on the CPU, writing the
// uniforms and ids (Upload), recording and submitting the command buffers
// (Record), waiting for the result slices that are allocated (and so
// cleared) while the device works, where that takes longer (Alloc),
// waiting for the device to finish the work and map the results (Wait: the
// GPU's time, as seen from the CPU), copying the mapped results (Copy) and
// cutting them into per-sentence results (Unpack). On a software adapter,
// whose schedule waits for each part of a batch before submitting the
// next, Record holds those waits too.
type Phases struct {
	Calls                                           int
	Plan, Upload, Record, Alloc, Wait, Copy, Unpack time.Duration
}

// String lists the phases in milliseconds.
func (p Phases) String() string {
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	return fmt.Sprintf("plan %.1f ms, upload %.1f ms, record+submit %.1f ms, allocation %.1f ms, GPU wait+map %.1f ms, copy %.1f ms, unpack %.1f ms (%d calls)",
		ms(p.Plan), ms(p.Upload), ms(p.Record), ms(p.Alloc), ms(p.Wait), ms(p.Copy), ms(p.Unpack), p.Calls)
}

// Scale returns p with every duration multiplied by f (an average: 1/runs).
func (p Phases) Scale(f float64) Phases {
	sc := func(d time.Duration) time.Duration { return time.Duration(float64(d) * f) }
	return Phases{Calls: p.Calls, Plan: sc(p.Plan), Upload: sc(p.Upload), Record: sc(p.Record), Alloc: sc(p.Alloc),
		Wait: sc(p.Wait), Copy: sc(p.Copy), Unpack: sc(p.Unpack)}
}

// Add returns the sum of p and q.
func (p Phases) Add(q Phases) Phases {
	return Phases{Calls: p.Calls + q.Calls, Plan: p.Plan + q.Plan, Upload: p.Upload + q.Upload, Record: p.Record + q.Record,
		Alloc: p.Alloc + q.Alloc, Wait: p.Wait + q.Wait, Copy: p.Copy + q.Copy, Unpack: p.Unpack + q.Unpack}
}
