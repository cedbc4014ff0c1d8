package scorer

// Sized is a Scorer that knows how much memory scoring one sentence of n
// words allocates in the caller's thread at most: the CPU reference its
// outputs and work memory (network.Config.InferenceBytes), an ensemble the
// sum of its members'. out is the size of one sentence's result, which is
// all that a backend working elsewhere (a GPU, another thread) allocates
// here.
type Sized interface {
	Scorer
	InferenceBytes(n int, out int64) int64
}

// InferenceBytes returns the memory that s allocates in the caller's
// thread to score one sentence of n words (see Sized): its own bound when
// it is Sized, else out, the size of the result (a backend that works
// elsewhere).
func InferenceBytes(s Scorer, n int, out int64) int64 {
	if sz, ok := s.(Sized); ok {
		return sz.InferenceBytes(n, out)
	}
	return out
}

// InferenceBytes implements Sized: the CPU reference's outputs and work
// memory.
func (c cpu) InferenceBytes(n int, _ int64) int64 { return c.m.Config().InferenceBytes(n) }

// InferenceBytes implements Sized: every member's, since a member's
// results are kept until all have scored.
func (m *mean) InferenceBytes(n int, out int64) int64 {
	var sum int64
	for _, s := range m.members {
		sum += InferenceBytes(s, n, out)
	}
	return sum
}

// InferenceBytes implements Sized: the larger of the GPU's and the CPU's,
// since the CPU takes over when the GPU fails.
func (f *fallback) InferenceBytes(n int, out int64) int64 {
	cpu := InferenceBytes(f.cpu, n, out)
	if s := f.current(); s != f.cpu {
		return max(cpu, InferenceBytes(s, n, out))
	}
	return cpu
}

// InferenceBytes implements Sized: the recorded scorer's, whose results
// the Recorder keeps besides (Recorded).
func (r *Recorder) InferenceBytes(n int, out int64) int64 {
	return InferenceBytes(r.Scorer, n, out)
}

// InferenceBytes implements Sized: a copy of a recorded result (with
// Copy), else nothing new.
func (r *Replay) InferenceBytes(n int, out int64) int64 {
	if r.Copy {
		return out
	}
	return 0
}
