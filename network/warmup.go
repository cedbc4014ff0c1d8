package network

// WarmUp makes m's first real call fast: it prepares the inference weights
// (kept with the Params, see Params.Changed), loads the wasm SIMD kernels
// where there are some, and scores a synthetic 20-word sentence a few
// times, so that a JavaScript engine has compiled the hot code with its
// optimising tier. Call it after loading a model, before the first parse;
// it costs a few sentences' scoring.
func (m *Model) WarmUp() {
	c := m.Config()
	if c.WordVocab <= numReservedWords || c.CharVocab <= numReservedChars {
		return
	}
	const words = 20
	in := Input{WordIDs: make([]int, words), CharIDs: make([][]int, words)}
	for i := range words {
		in.WordIDs[i] = numReservedWords + i%(c.WordVocab-numReservedWords)
		chars := make([]int, 2+i%7)
		for j := range chars {
			chars[j] = numReservedChars + (i+j)%(c.CharVocab-numReservedChars)
		}
		in.CharIDs[i] = chars
	}
	for range 3 {
		if _, err := m.Forward(in); err != nil {
			panic("network: WarmUp: " + err.Error()) // the input is valid by construction
		}
	}
}
