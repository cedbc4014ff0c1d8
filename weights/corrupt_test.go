package weights

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/discspan/discspan/network"
)

// fixture is a small valid file and what it was made from.
type fixture struct {
	v    *network.Vocab
	c    network.Config
	p    *network.Params
	data map[DType][]byte
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	v := fakeVocab(t, 12, 9, 3, 2)
	c := microConfig(v)
	c.WordDim, c.LSTM1Hidden = 3, 3
	p, err := network.NewParams(c)
	if err != nil {
		t.Fatal(err)
	}
	fillRandom(p, 9)
	f := fixture{v: v, c: c, p: p, data: map[DType][]byte{}}
	for _, dt := range allDTypes {
		f.data[dt] = encode(t, p, v, dt)
	}
	return f
}

func headerLen(data []byte) int { return int(binary.LittleEndian.Uint64(data)) }

// setJSON re-encodes a JSON-valued metadata entry after edit.
func setJSON(t *testing.T, r *rawFile, key string, edit func(map[string]any)) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Meta[key]), &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	r.Meta[key] = string(b)
}

func TestCorrupt(t *testing.T) {
	fx := newFixture(t)
	f32 := fx.data[Float32]
	n := headerLen(f32)
	// raw edits the F32 (or given dtype's) file through rawFile, then
	// re-encodes it with checksums fixed or not.
	raw := func(dt DType, fixSums bool, edit func(t *testing.T, r *rawFile)) func(t *testing.T) []byte {
		return func(t *testing.T) []byte {
			r := parseRaw(t, fx.data[dt])
			edit(t, &r)
			return r.encode(fixSums)
		}
	}
	bytesOf := func(data []byte) func(*testing.T) []byte {
		return func(*testing.T) []byte { return data }
	}
	flip := func(data []byte, i int) []byte {
		out := append([]byte(nil), data...)
		out[i] ^= 0xff
		return out
	}
	replaceHeader := func(old, new string) func(t *testing.T) []byte {
		return func(t *testing.T) []byte {
			h := string(f32[8 : 8+n])
			if !strings.Contains(h, old) {
				t.Fatalf("header has no %q", old)
			}
			h = strings.Replace(h, old, new, 1)
			return assemble([]byte(h), f32[8+n:])
		}
	}
	wih := fx.p.Get("lstm1.fwd.w_ih")
	cases := []struct {
		name string
		file func(t *testing.T) []byte
		kind error
		want string // substring of the message
	}{
		// Truncation at several points.
		{"empty", bytesOf(nil), ErrTruncated, "file is 0 bytes, too short for the 8-byte header length"},
		{"cut in length", bytesOf(f32[:5]), ErrTruncated, "file is 5 bytes"},
		{"cut after length", bytesOf(f32[:8]), ErrTruncated, fmt.Sprintf("header length is %d bytes, but only 0 bytes follow it", n)},
		{"cut in header", bytesOf(f32[:8+n/2]), ErrTruncated, "(file truncated?)"},
		{"cut after header", bytesOf(f32[:8+n]), ErrTruncated, "but the data section has only 0 bytes (file truncated?)"},
		{"cut in data", bytesOf(f32[:8+n+(len(f32)-8-n)/2]), ErrTruncated, "(file truncated?)"},
		{"cut last byte", bytesOf(f32[:len(f32)-1]), ErrTruncated, "(file truncated?)"},
		{"huge header length", func(*testing.T) []byte {
			out := append([]byte(nil), f32...)
			binary.LittleEndian.PutUint64(out, 1<<40)
			return out
		}, ErrHeader, "exceeds the limit"},
		{"tiny header length", func(*testing.T) []byte {
			out := append([]byte(nil), f32...)
			binary.LittleEndian.PutUint64(out, 1)
			return out
		}, ErrHeader, "too small"},

		// Header JSON.
		{"flip first header byte", bytesOf(flip(f32, 8)), ErrHeader, "not valid UTF-8"},
		{"header not JSON", replaceHeader(`"dtype":"F32"`, `"dtype":F32"`), ErrHeader, "header is not JSON: invalid character 'F'"},
		{"header starts with space", replaceHeader(`{"__metadata__"`, ` "__metadata__"`), ErrHeader, "does not start with '{'"},
		{"padding not spaces", func(t *testing.T) []byte {
			h := []byte(strings.TrimRight(string(f32[8:8+n]), " ") + "\n\n\n\n\n\n\n\n")
			return assemble(h[:len(h)/8*8], f32[8+n:])
		}, ErrHeader, "padded with '\\n'"},
		{"duplicate key", replaceHeader(`"shape"`, `"shape":[1],"shape"`), ErrHeader, `duplicate key "shape"`},
		{"unknown tensor field", replaceHeader(`:{"dtype"`, `:{"Dtype"`), ErrHeader, `unknown field "Dtype"`},
		{"metadata not a string", replaceHeader(`"epochs":"12"`, `"epochs":12`), ErrMeta, `metadata "epochs" is 12, want a string`},
		{"no metadata", raw(Float32, false, func(_ *testing.T, r *rawFile) { r.Meta = nil }), ErrMeta, "header has no __metadata__"},

		// Metadata.
		{"version 99", raw(Float32, true, func(_ *testing.T, r *rawFile) { r.Meta["format_version"] = "99" }), ErrNewer,
			"format_version 99: written by a newer discspan (this one reads version 2)"},
		{"version 0", raw(Float32, true, func(_ *testing.T, r *rawFile) { r.Meta["format_version"] = "0" }), ErrMeta, "want a positive integer"},
		{"other format", raw(Float32, true, func(_ *testing.T, r *rawFile) { r.Meta["format"] = "pt" }), ErrMeta, `format is "pt", want "discspan"`},
		{"missing config", raw(Float32, true, func(_ *testing.T, r *rawFile) { delete(r.Meta, "config") }), ErrMeta, `metadata has no "config" entry`},
		{"missing format", raw(Float32, true, func(_ *testing.T, r *rawFile) { delete(r.Meta, "format") }), ErrMeta, `no "format" entry (not a discspan weights file)`},
		{"metadata checksum", raw(Float32, false, func(_ *testing.T, r *rawFile) { r.Meta["created_by"] = "someone else" }), ErrChecksum,
			"corrupt: metadata checksum mismatch"},
		{"flip byte in header string", func(t *testing.T) []byte {
			i := strings.Index(string(f32[:8+n]), "alpino-train") + 2
			out := append([]byte(nil), f32...)
			out[i] ^= 0x01
			return out
		}, ErrChecksum, "corrupt: metadata checksum mismatch"},
		{"bad dtype entry", raw(Float32, true, func(_ *testing.T, r *rawFile) { r.Meta["dtype"] = "BF16" }), ErrDType, `metadata dtype is "BF16"`},
		{"bad tensors_sha256", raw(Float32, false, func(_ *testing.T, r *rawFile) {
			r.Meta["tensors_sha256"] = "xyz"
			r.Meta["metadata_sha256"] = metadataSHA256(r.Meta)
		}), ErrMeta, "want 64 lower-case hex digits"},
		{"config unknown field", raw(Float32, true, func(t *testing.T, r *rawFile) {
			setJSON(t, r, "config", func(m map[string]any) { m["Word_Dim"] = 3 })
		}), ErrMeta, `config has unknown field "Word_Dim"`},
		{"config missing field", raw(Float32, true, func(t *testing.T, r *rawFile) {
			setJSON(t, r, "config", func(m map[string]any) { delete(m, "leaky_slope") })
		}), ErrMeta, `config has no "leaky_slope" field`},
		{"config invalid", raw(Float32, true, func(t *testing.T, r *rawFile) {
			setJSON(t, r, "config", func(m map[string]any) { m["span_mlp"] = 0 })
		}), ErrMeta, "span_mlp = 0, want > 0"},
		{"config huge", raw(Float32, true, func(t *testing.T, r *rawFile) {
			setJSON(t, r, "config", func(m map[string]any) { m["word_vocab"] = 1 << 40 })
		}), ErrMeta, "implausibly large"},
		{"vocab fewer labels than config", raw(Float32, true, func(t *testing.T, r *rawFile) {
			setJSON(t, r, "vocab", func(m map[string]any) { m["labels"] = m["labels"].([]any)[1:] })
		}), ErrVocab, "vocab has 2 labels, config labels = 3"},
		{"vocab bad reserved word", raw(Float32, true, func(t *testing.T, r *rawFile) {
			setJSON(t, r, "vocab", func(m map[string]any) { m["words"].([]any)[0] = "<UNK>" })
		}), ErrVocab, `want reserved "<unk>"`},
		{"bad dev_f1", raw(Float32, true, func(_ *testing.T, r *rawFile) { r.Meta["dev_f1"] = "NaN" }), ErrMeta, `dev_f1 is "NaN", want a finite number`},
		{"bad created", raw(Float32, true, func(_ *testing.T, r *rawFile) { r.Meta["created"] = "yesterday" }), ErrMeta, "want an RFC 3339 time"},

		// Tensor entries and layout.
		{"unknown dtype", raw(Float32, true, func(t *testing.T, r *rawFile) { r.tensor(t, "tagger.b").DType = "F33" }), ErrDType,
			`tensor "tagger.b" has unknown dtype "F33"`},
		{"unsupported dtype", raw(Float32, true, func(t *testing.T, r *rawFile) {
			x := r.tensor(t, "tagger.b")
			x.DType, x.Data = "F64", append(x.Data, x.Data...)
		}), ErrDType, `tensor "tagger.b" has dtype F64, which discspan does not read`},
		{"shape does not match bytes", raw(Float32, true, func(t *testing.T, r *rawFile) { r.tensor(t, "tagger.b").Shape = []int{3} }), ErrLayout,
			`tensor "tagger.b": shape [3] of F32 needs 12 bytes, data_offsets`},
		{"overlapping offsets", raw(Float32, true, func(t *testing.T, r *rawFile) {
			r.tensor(t, "char.emb").Offsets = &[2]int64{4, 4 + int64(len(r.tensor(t, "char.emb").Data))}
		}), ErrLayout, `tensors "word.emb" [0, 144] and "char.emb" [4, 76] overlap`},
		{"gap", raw(Float32, true, func(t *testing.T, r *rawFile) { r.tensor(t, "tagger.b").Skip = true }), ErrLayout,
			`gap of 8 bytes between tensors "tagger.w"`},
		{"offsets backwards", raw(Float32, true, func(t *testing.T, r *rawFile) { r.tensor(t, "tagger.b").Offsets = &[2]int64{8, 0} }), ErrLayout,
			`tensor "tagger.b": data_offsets [8, 0] run backwards`},
		{"trailing bytes", func(t *testing.T) []byte {
			r := parseRaw(t, f32)
			out := r.encode(true)
			return append(out, 0, 0, 0, 0)
		}, ErrLayout, "4 bytes of data after the last tensor"},

		// Tensors against the config.
		{"wrong shape in config", raw(Float32, true, func(t *testing.T, r *rawFile) {
			setJSON(t, r, "config", func(m map[string]any) { m["char_hidden"] = 2 })
		}), ErrTensors, fmt.Sprintf(`tensor "char_lstm.fwd.w_ih" has shape %v, config wants [8 %d]`, fx.p.Get("char_lstm.fwd.w_ih").Shape, fx.c.CharDim)},
		{"wrong lstm1 input in config", raw(Float32, true, func(t *testing.T, r *rawFile) {
			setJSON(t, r, "config", func(m map[string]any) { m["word_dim"] = 5 })
		}), ErrTensors, fmt.Sprintf(`tensor "lstm1.fwd.w_ih" has shape %v, config wants [%d %d]`, wih.Shape, wih.Shape[0], wih.Shape[1]+2)},
		{"extra tensor", raw(Float32, true, func(_ *testing.T, r *rawFile) {
			r.Tensors = append(r.Tensors, rawTensor{Name: "extra.w", DType: "F32", Shape: []int{2}, Data: make([]byte, 8)})
		}), ErrTensors, `unexpected tensor "extra.w" (not in the config)`},
		{"missing tensor", raw(Float32, true, func(_ *testing.T, r *rawFile) {
			for i, x := range r.Tensors {
				if x.Name == "tagger.b" {
					r.Tensors = append(r.Tensors[:i], r.Tensors[i+1:]...)
					break
				}
			}
		}), ErrTensors, `missing tensor "tagger.b" (config wants F32 [2])`},
		{"renamed tensor", raw(Float32, true, func(t *testing.T, r *rawFile) { r.tensor(t, "gap.label.biaffine").Name = "gap.label.biafine" }), ErrTensors,
			`missing tensor "gap.label.biaffine" (config wants F32 [3 2 2]); unexpected tensor "gap.label.biafine"`},
		{"tensor dtype differs from metadata", raw(Float32, true, func(t *testing.T, r *rawFile) {
			x := r.tensor(t, "tagger.b")
			x.DType, x.Data = "F16", x.Data[:4]
		}), ErrTensors, `tensor "tagger.b" has dtype F16, want F32 (metadata dtype is F32)`},
		{"int8 scale missing", raw(Int8, true, func(_ *testing.T, r *rawFile) {
			for i, x := range r.Tensors {
				if x.Name == "tagger.w.__scale" {
					r.Tensors = append(r.Tensors[:i], r.Tensors[i+1:]...)
					break
				}
			}
		}), ErrTensors, `missing tensor "tagger.w.__scale" (config wants F32 [2])`},

		// Data.
		{"flip byte in data", bytesOf(flip(f32, len(f32)-3)), ErrChecksum, "corrupt: tensors checksum mismatch"},
		{"flip byte in int8 data", bytesOf(flip(fx.data[Int8], len(fx.data[Int8])-1)), ErrChecksum, "corrupt: tensors checksum mismatch"},
		{"NaN", raw(Float32, true, func(t *testing.T, r *rawFile) {
			binary.LittleEndian.PutUint32(r.tensor(t, "tagger.w").Data[4*4:], math.Float32bits(float32(math.NaN())))
		}), ErrValue, fmt.Sprintf(`tensor "tagger.w" has NaN at [%d %d]`, 4/fx.p.Get("tagger.w").Shape[1], 4%fx.p.Get("tagger.w").Shape[1])},
		{"Inf in float16", raw(Float16, true, func(t *testing.T, r *rawFile) {
			binary.LittleEndian.PutUint16(r.tensor(t, "word.emb").Data[2:], 0xfc00)
		}), ErrValue, `tensor "word.emb" has -Inf at [0 1]`},
		{"negative int8 scale", raw(Int8, true, func(t *testing.T, r *rawFile) {
			binary.LittleEndian.PutUint32(r.tensor(t, "char.emb.__scale").Data, math.Float32bits(-1))
		}), ErrValue, `scale tensor "char.emb.__scale" has -1 at [0]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data := tc.file(t)
			f, err := Read(data, "model.safetensors")
			if err == nil {
				t.Fatalf("no error (dtype %v)", f.DType)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "weights: model.safetensors: ") {
				t.Errorf("error %q does not name the file", msg)
			}
			if !errors.Is(err, tc.kind) {
				t.Errorf("error %q is not %v", msg, tc.kind)
			}
			if !strings.Contains(msg, tc.want) {
				t.Errorf("error %q\ndoes not say %q", msg, tc.want)
			}
			var e *Error
			if !errors.As(err, &e) || e.Name != "model.safetensors" {
				t.Errorf("error %T is not an *Error naming the file", err)
			}
		})
	}
}

// TestEveryHeaderByte: changing any single byte of the length or the header
// is an error, never a silently different model.
func TestEveryHeaderByte(t *testing.T) {
	fx := newFixture(t)
	step := 1
	if testing.Short() {
		step = 13
	}
	cases := []struct {
		dtype DType
		masks []byte
	}{{Float32, []byte{0x01, 0x80}}, {Int8, []byte{0x20}}}
	for _, tc := range cases {
		data := fx.data[tc.dtype]
		n := headerLen(data)
		for _, mask := range tc.masks {
			for i := 0; i < 8+n; i += step {
				out := append([]byte(nil), data...)
				out[i] ^= mask
				if f, err := Read(out, "x"); err == nil {
					t.Fatalf("%v: byte %d ^ %#02x (%q -> %q): no error (%v)", tc.dtype, i, mask, data[i], out[i], f.Meta.Config)
				}
			}
		}
		// And a sample of the data bytes.
		for i := 8 + n; i < len(data); i += 7 {
			out := append([]byte(nil), data...)
			out[i] ^= 0x10
			if _, err := Read(out, "x"); !errors.Is(err, ErrChecksum) {
				t.Fatalf("%v: data byte %d: %v, want a checksum error", tc.dtype, i, err)
			}
		}
	}
}
