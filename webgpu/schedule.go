package webgpu

// The submission schedule of a batch: which chunks go to the device
// together, where their tables sit in the upload buffer and their results in
// the staging buffer, and where the software path ends a submission to wait
// for it. It is a pure function of the chunks' dispatches, so that the
// structure a hardware adapter gets (one submission and one read-back per
// batch) is tested without one (TestHardwareSchedule).

// Limits of the buffers that grow with a batch (allocated for one chunk by
// New, grown on demand and kept).
const (
	// stagingLimit bounds the read-back (staging) buffer: WebGPU's default
	// maxBufferSize. A mapped buffer is bound to no shader, so the 128 MiB
	// storage binding limit does not apply. The Alpino test set's results
	// (714 sentences, the shipped model's 28 labels) take 59 MiB.
	stagingLimit = 256 << 20
	// uploadLimit bounds the upload buffer (the uniforms and tables of every
	// chunk of a group; a chunk of 1024 tokens needs at most about 250 KiB).
	uploadLimit = 32 << 20
)

// job is one chunk's work in a group: its dispatches (dispatch i reads
// uniform slot i), its ints tables and how many floats of the out region it
// reads back.
type job struct {
	ds     []dispatch
	ints   []uint32
	outLen int // floats read back (the out region: packed score blocks, tags)
	// fullLen is the floats of the results, the decoder's layout, and
	// pieces where the read-back's floats go in them, back to back (see
	// chunk.pieces).
	fullLen int
	pieces  []piece
	segs    []int // where the segments of the results start (chunk.segments)

	// Placed by schedule: byte offsets of the uniforms and the ints in the
	// upload buffer, float offset of the results in the staging buffer.
	uniAt, intsAt, outAt int
	// out is the results, set by runJobs.
	out results
}

// uniBytes and intsBytes are the sizes of a job's regions in the upload
// buffer, rounded up to 256 bytes.
func (j *job) uniBytes() int  { return uniformSlot * len(j.ds) }
func (j *job) intsBytes() int { return (4*len(j.ints) + 255) &^ 255 }

// cut is the end of a submission inside a group: before dispatch at of job
// (at 0: before its first dispatch, after its table copies).
type cut struct{ job, at int }

// group is the jobs submitted together: one write of the upload buffer,
// each job's table copies, dispatches and result copy recorded in order,
// one submission (plus one per cut, each waited for) and one map of the
// staging buffer at the end.
type group struct {
	jobs   []*job
	cuts   []cut
	upload int // bytes of the upload buffer used
	outLen int // floats of the staging buffer used
}

// submissions returns the group's queue submissions; each is followed by
// one buffer map (a wait, or the read-back for the last).
func (g *group) submissions() int { return 1 + len(g.cuts) }

// dispatches returns the group's dispatches.
func (g *group) dispatches() int {
	n := 0
	for _, j := range g.jobs {
		n += len(j.ds)
	}
	return n
}

// schedule groups jobs, in order, so that each group's results fit
// stagingCap bytes and its tables uploadCap bytes (a job alone always
// forms a group), places them, and cuts a group's dispatches into
// submissions of at most submitWork estimated work (submitWork <= 0: no
// cut, one submission per group). Cost O(dispatches).
func schedule(jobs []*job, submitWork float64, stagingCap, uploadCap int) []*group {
	var groups []*group
	var g *group
	work := 0.0
	for _, jb := range jobs {
		up := jb.uniBytes() + jb.intsBytes()
		if g == nil || 4*(g.outLen+jb.outLen) > stagingCap || g.upload+up > uploadCap {
			g = &group{}
			groups = append(groups, g)
			work = 0
		}
		jb.uniAt, jb.intsAt, jb.outAt = g.upload, g.upload+jb.uniBytes(), g.outLen
		g.upload += up
		g.outLen += jb.outLen
		g.jobs = append(g.jobs, jb)
		for i, d := range jb.ds {
			if submitWork > 0 && work > 0 && work+d.work > submitWork {
				g.cuts = append(g.cuts, cut{job: len(g.jobs) - 1, at: i})
				work = 0
			}
			work += d.work
		}
	}
	return groups
}
