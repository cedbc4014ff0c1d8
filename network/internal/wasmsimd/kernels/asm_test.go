package kernels

import (
	"bytes"
	"testing"
)

// TestLEB128: the unsigned and signed LEB128 encodings of the
// WebAssembly binary format, at the edges of each byte count.
func TestLEB128(t *testing.T) {
	for _, tc := range []struct {
		v    uint32
		want []byte
	}{
		{0, []byte{0x00}},
		{127, []byte{0x7f}},
		{128, []byte{0x80, 0x01}},
		{0x105, []byte{0x85, 0x02}}, // f32x4.relaxed_madd
		{16383, []byte{0xff, 0x7f}},
		{16384, []byte{0x80, 0x80, 0x01}},
	} {
		if got := appendU32(nil, tc.v); !bytes.Equal(got, tc.want) {
			t.Errorf("u32 %d: % x, want % x", tc.v, got, tc.want)
		}
	}
	for _, tc := range []struct {
		v    int32
		want []byte
	}{
		{0, []byte{0x00}},
		{-1, []byte{0x7f}},
		{63, []byte{0x3f}},
		{64, []byte{0xc0, 0x00}},
		{-64, []byte{0x40}},
		{-65, []byte{0xbf, 0x7f}},
		{127, []byte{0xff, 0x00}},
		{-128, []byte{0x80, 0x7f}},
	} {
		if got := appendS32(nil, tc.v); !bytes.Equal(got, tc.want) {
			t.Errorf("s32 %d: % x, want % x", tc.v, got, tc.want)
		}
	}
}

// TestModuleLayout: a module of one exported function and one internal
// one has the sections in order (type, import, function, export, code),
// imports env.memory, and exports only the named function.
func TestModuleLayout(t *testing.T) {
	f := newFn("f", 1)
	g := newVecFn()
	g.get(0)
	m := module([]*fn{f, g})
	var ids []byte
	for i := 8; i < len(m); {
		id := m[i]
		i++
		size, n := uint32(0), 0
		for shift := 0; ; shift += 7 {
			b := m[i+n]
			size |= uint32(b&0x7f) << shift
			n++
			if b < 0x80 {
				break
			}
		}
		i += n + int(size)
		if i > len(m) {
			t.Fatalf("section %d overruns the module", id)
		}
		ids = append(ids, id)
	}
	if want := []byte{1, 2, 3, 7, 10}; !bytes.Equal(ids, want) {
		t.Errorf("sections %v, want %v", ids, want)
	}
	if !bytes.Contains(m, []byte("\x03env\x06memory\x02\x00\x00")) {
		t.Error("no import of env.memory")
	}
	if !bytes.Contains(m, []byte{0x07, 0x05, 0x01, 0x01, 'f', 0x00, 0x00}) {
		t.Error("the export section is not one export of function 0 as f")
	}
}
