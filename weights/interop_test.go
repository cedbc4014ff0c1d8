package weights

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestSafetensorsSpec parses written files by the safetensors rules alone
// (encoding/json into maps, no code of this package's reader) and checks
// every rule of the specification, the alignment promise and the values.
func TestSafetensorsSpec(t *testing.T) {
	fx := newFixture(t)
	elem := map[string]int{"F32": 4, "F16": 2, "I8": 1, "U8": 1}
	for _, dt := range allDTypes {
		t.Run(dt.String(), func(t *testing.T) {
			data := fx.data[dt]
			n := binary.LittleEndian.Uint64(data[:8])
			if n%8 != 0 || 8+n > uint64(len(data)) {
				t.Fatalf("header length %d (file %d bytes), want a multiple of 8 within the file", n, len(data))
			}
			hdr := data[8 : 8+n]
			if hdr[0] != '{' {
				t.Errorf("header starts with %q", hdr[0])
			}
			body := bytes.TrimRight(hdr, " ")
			if body[len(body)-1] != '}' || len(hdr)-len(body) >= 8 {
				t.Errorf("header padding: %q", hdr[len(body)-1:])
			}
			var top map[string]json.RawMessage
			if err := json.Unmarshal(hdr, &top); err != nil {
				t.Fatal(err)
			}
			var meta map[string]any
			if err := json.Unmarshal(top["__metadata__"], &meta); err != nil {
				t.Fatal(err)
			}
			for k, v := range meta {
				if _, ok := v.(string); !ok {
					t.Errorf("metadata %q is %T, want a string", k, v)
				}
			}
			if meta["format"] != "discspan" || meta["format_version"] != "1" || meta["dtype"] != dt.String() {
				t.Errorf("metadata format %v version %v dtype %v", meta["format"], meta["format_version"], meta["dtype"])
			}
			dataSection := data[8+n:]
			sum := sha256.Sum256(dataSection)
			if meta["tensors_sha256"] != hex.EncodeToString(sum[:]) {
				t.Error("tensors_sha256 is not the SHA-256 of the data section")
			}
			type entry struct {
				name       string
				dtype      string
				shape      []int
				begin, end int
			}
			var entries []entry
			for name, raw := range top {
				if name == "__metadata__" {
					continue
				}
				var e struct {
					DType   string `json:"dtype"`
					Shape   []int  `json:"shape"`
					Offsets []int  `json:"data_offsets"`
				}
				if err := json.Unmarshal(raw, &e); err != nil {
					t.Fatal(err)
				}
				size := elem[e.DType]
				for _, d := range e.Shape {
					size *= d
				}
				if len(e.Offsets) != 2 || e.Offsets[1]-e.Offsets[0] != size {
					t.Errorf("%s: %s %v needs %d bytes, offsets %v", name, e.DType, e.Shape, size, e.Offsets)
				}
				if (8+int(n)+e.Offsets[0])%elem[e.DType] != 0 {
					t.Errorf("%s: file offset %d not aligned to %d", name, 8+int(n)+e.Offsets[0], elem[e.DType])
				}
				entries = append(entries, entry{name, e.DType, e.Shape, e.Offsets[0], e.Offsets[1]})
			}
			slices.SortFunc(entries, func(a, b entry) int { return a.begin - b.begin })
			at := 0
			for _, e := range entries {
				if e.begin != at {
					t.Fatalf("%s starts at %d, want %d (contiguous)", e.name, e.begin, at)
				}
				at = e.end
			}
			if at != len(dataSection) {
				t.Errorf("tensors end at %d, data section is %d bytes", at, len(dataSection))
			}
			// Names in data order: the network's order (scales first for I8).
			var names []string
			for _, e := range entries {
				if !strings.HasSuffix(e.name, scaleSuffix) {
					names = append(names, e.name)
				}
			}
			if !slices.Equal(names, fx.p.Names()) {
				t.Errorf("data order %v, want %v", names, fx.p.Names())
			}
			// Values, decoded by hand.
			for _, e := range entries {
				if strings.HasSuffix(e.name, scaleSuffix) {
					continue
				}
				want := fx.p.Get(e.name).Data
				raw := dataSection[e.begin:e.end]
				for i, x := range want {
					var got float64
					tol := 1e-3 * math.Abs(float64(x)) // F16; F32 is exact
					switch e.dtype {
					case "F32":
						got = float64(math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:])))
					case "F16":
						got = float64(fromHalf(binary.LittleEndian.Uint16(raw[2*i:])))
					case "I8":
						sc := top[e.name+scaleSuffix]
						var s struct {
							Offsets []int `json:"data_offsets"`
						}
						json.Unmarshal(sc, &s)
						c := e.shape[len(e.shape)-1]
						scale := math.Float32frombits(binary.LittleEndian.Uint32(dataSection[s.Offsets[0]+4*(i/c):]))
						got = float64(float32(int8(raw[i])) * scale)
						tol = float64(scale) / 2 * (1 + 1e-6)
					case "U8": // I4: two values a byte, the low nibble first, value+8; one scale a row
						sc := top[e.name+scaleSuffix]
						var s struct {
							Offsets []int `json:"data_offsets"`
						}
						json.Unmarshal(sc, &s)
						rowBytes := e.shape[1]
						c := len(want) / e.shape[0]
						row, j := i/c, i%c
						nibble := raw[row*rowBytes+j/2]
						if j%2 == 1 {
							nibble >>= 4
						}
						scale := math.Float32frombits(binary.LittleEndian.Uint32(dataSection[s.Offsets[0]+4*row:]))
						got = float64(float32(int(nibble&15)-8) * scale)
						tol = float64(scale) / 2 * (1 + 1e-6)
					}
					if e.dtype == "F16" && math.Abs(float64(x)) < 0x1p-14 {
						tol = 0x1p-25 // subnormal spacing
					}
					if d := math.Abs(got - float64(x)); d > tol {
						t.Fatalf("%s[%d] = %v, want %v", e.name, i, got, x)
					}
				}
			}
		})
	}
}

// TestHeaderBytes pins the first bytes of a file: the length and the start
// of the JSON.
func TestHeaderBytes(t *testing.T) {
	fx := newFixture(t)
	data := fx.data[Float16]
	n := binary.LittleEndian.Uint64(data)
	if data[5] != 0 || data[6] != 0 || data[7] != 0 || n == 0 {
		t.Errorf("length bytes % x", data[:8])
	}
	if want := `{"__metadata__":{"config":"{\"word_dim\":3,`; !strings.HasPrefix(string(data[8:]), want) {
		t.Errorf("header starts %q, want %q", data[8:8+len(want)], want)
	}
	if !bytes.Contains(data[8:8+n], []byte(`"word.emb":{"dtype":"F16","shape":[12,3],"data_offsets":[0,72]}`)) {
		t.Errorf("no word.emb entry in %s", data[8:8+n])
	}
}
