package decode

// arena hands out chart memory from buffers that a Decoder keeps between
// sentences, so that decoding many sentences allocates (and clears) chart
// memory once. Slices it returns are NOT zeroed: every chart writes a cell
// before reading it.
type arena struct {
	floats []float32
	ints   []int
	fUsed  int
	iUsed  int
}

func (a *arena) reset() { a.fUsed, a.iUsed = 0, 0 }

// float32s returns n float32 cells.
func (a *arena) float32s(n int) []float32 {
	if a.fUsed+n > len(a.floats) {
		// Earlier slices keep the old buffer alive until the run ends; the
		// next run starts from this larger one.
		a.floats = make([]float32, max(2*len(a.floats), a.fUsed+n, 1024))
		a.fUsed = 0
	}
	s := a.floats[a.fUsed : a.fUsed+n : a.fUsed+n]
	a.fUsed += n
	return s
}

// intSlice returns n int cells.
func (a *arena) intSlice(n int) []int {
	if a.iUsed+n > len(a.ints) {
		a.ints = make([]int, max(2*len(a.ints), a.iUsed+n, 256))
		a.iUsed = 0
	}
	s := a.ints[a.iUsed : a.iUsed+n : a.iUsed+n]
	a.iUsed += n
	return s
}
