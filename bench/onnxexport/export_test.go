package onnxexport

import (
	"encoding/binary"
	"fmt"
	"slices"
	"testing"

	"github.com/discspan/discspan/network"
)

func TestNewFeeds(t *testing.T) {
	c := network.Tiny()
	c.MaxChars = 3
	B, E, bos, eos := int64(network.BOWChar), int64(network.EOWChar), int64(network.BOSChar), int64(network.EOSChar)
	for _, tc := range []struct {
		name string
		in   network.Input
		want Feeds
	}{
		{"empty", network.Input{}, Feeds{Tokens: 2, Chars: 3,
			WordIDs:  []int64{network.BOSWord, network.EOSWord},
			CharIDs:  []int64{B, B, bos, eos, E, E},
			CharLens: []int32{3, 3}}},
		{"short word", network.Input{WordIDs: []int{7}, CharIDs: [][]int{{9}}}, Feeds{Tokens: 3, Chars: 3,
			WordIDs:  []int64{network.BOSWord, 7, network.EOSWord},
			CharIDs:  []int64{B, B, B, bos, 9, eos, E, E, E},
			CharLens: []int32{3, 3, 3}}},
		{"MaxChars cut, padding", network.Input{WordIDs: []int{7, 8}, CharIDs: [][]int{{9, 10, 11, 12}, {}}}, Feeds{Tokens: 4, Chars: 5,
			WordIDs: []int64{network.BOSWord, 7, 8, network.EOSWord},
			CharIDs: []int64{
				B, B, B, B,
				bos, 9, E, eos,
				E, 10, 0, E,
				0, 11, 0, 0,
				0, E, 0, 0},
			CharLens: []int32{3, 5, 2, 3}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := NewFeeds(c, tc.in)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("NewFeeds = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// field is one decoded protobuf field: a varint (v) or bytes (b).
type field struct {
	num int
	v   uint64
	b   []byte
}

// decode splits a message into its fields (varint, 32-bit and
// length-delimited only, the wire types Export writes).
func decode(t *testing.T, m []byte) []field {
	t.Helper()
	var out []field
	for len(m) > 0 {
		key, k := binary.Uvarint(m)
		if k <= 0 {
			t.Fatalf("bad field key")
		}
		m = m[k:]
		f := field{num: int(key >> 3)}
		switch key & 7 {
		case wireVarint:
			f.v, k = binary.Uvarint(m)
			if k <= 0 {
				t.Fatalf("field %d: bad varint", f.num)
			}
			m = m[k:]
		case wireFixed:
			f.b, m = m[:4], m[4:]
		case wireBytes:
			l, k := binary.Uvarint(m)
			if k <= 0 || uint64(len(m)-k) < l {
				t.Fatalf("field %d: bad length", f.num)
			}
			f.b, m = m[k:k+int(l)], m[k+int(l):]
		default:
			t.Fatalf("field %d: wire type %d", f.num, key&7)
		}
		out = append(out, f)
	}
	return out
}

func strField(t *testing.T, m []byte, num int) string {
	for _, f := range decode(t, m) {
		if f.num == num {
			return string(f.b)
		}
	}
	return ""
}

// TestExportGraph decodes the exported protobuf and checks its structure:
// the opset, every node's inputs defined before use (graph inputs,
// initializers or earlier outputs), the declared outputs produced, and the
// initializers holding every weight of the network once (plus the
// recurrent biases ONNX has and discspan folds in) and small constants.
func TestExportGraph(t *testing.T) {
	c := network.Tiny()
	p, err := network.NewParams(c)
	if err != nil {
		t.Fatal(err)
	}
	p.Init(1)
	data, err := Export(p)
	if err != nil {
		t.Fatal(err)
	}
	var g []byte
	var opset uint64
	for _, f := range decode(t, data) {
		switch f.num {
		case modelGraph:
			g = f.b
		case modelOpsetImport:
			for _, o := range decode(t, f.b) {
				if o.num == opsetVersion {
					opset = o.v
				}
			}
		}
	}
	if g == nil || opset != 17 {
		t.Fatalf("no graph (%d bytes) or opset %d, want 17", len(g), opset)
	}
	defined := map[string]bool{"": true}
	var outputs []string
	floats := 0
	nodes := 0
	for _, f := range decode(t, g) {
		switch f.num {
		case graphInput:
			defined[strField(t, f.b, valueInfoName)] = true
		case graphOutput:
			outputs = append(outputs, strField(t, f.b, valueInfoName))
		case graphInitializer:
			var typ uint64
			var raw int
			for _, tf := range decode(t, f.b) {
				switch tf.num {
				case tensorDataType:
					typ = tf.v
				case tensorRawData:
					raw = len(tf.b)
				}
			}
			if typ == typeFloat {
				floats += raw / 4
			}
			defined[strField(t, f.b, tensorName)] = true
		}
	}
	for _, f := range decode(t, g) {
		if f.num != graphNode {
			continue
		}
		nodes++
		var ins, outs []string
		for _, nf := range decode(t, f.b) {
			switch nf.num {
			case nodeInput:
				ins = append(ins, string(nf.b))
			case nodeOutput:
				outs = append(outs, string(nf.b))
			}
		}
		for _, in := range ins {
			if !defined[in] {
				t.Errorf("node %d (%s) reads %q before it is defined", nodes, strField(t, f.b, nodeOpType), in)
			}
		}
		for _, o := range outs {
			defined[o] = true
		}
	}
	for _, o := range outputs {
		if !defined[o] {
			t.Errorf("output %q is not produced", o)
		}
	}
	if !slices.Equal(outputs, []string{"cont", "disc", "gap", "tags"}) {
		t.Errorf("outputs %v", outputs)
	}
	recurrentBias := 2 * 4 * (c.CharHidden + c.LSTM1Hidden + c.LSTM2Hidden)
	if want := p.NumParams() + recurrentBias + 1; floats != want { // + the constant 1 of the biaffines' padding
		t.Errorf("%d float initializer values, want %d", floats, want)
	}
}
