package weights

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discspan/discspan/network"
)

func TestWriteRefuses(t *testing.T) {
	fx := newFixture(t)
	cases := []struct {
		name  string
		edit  func(p *network.Params, m *Meta)
		dtype DType
		want  string
	}{
		{"NaN", func(p *network.Params, _ *Meta) { p.Get("tagger.b").Data[1] = float32(math.NaN()) }, Float32, `tensor "tagger.b" element 1 is NaN`},
		{"Inf", func(p *network.Params, _ *Meta) { p.Get("word.emb").Data[0] = float32(math.Inf(-1)) }, Int8, `tensor "word.emb" element 0 is -Inf`},
		{"float16 overflow", func(p *network.Params, _ *Meta) { p.Get("word.emb").Data[2] = 70000 }, Float16, "overflows float16"},
		{"invalid dtype", func(*network.Params, *Meta) {}, 0, "invalid dtype"},
		{"no vocab", func(_ *network.Params, m *Meta) { m.Vocab = nil }, Float32, "no vocabulary"},
		{"vocab mismatch", func(_ *network.Params, m *Meta) { m.Vocab = fakeVocab(t, 13, 9, 3, 2) }, Float32, "vocab has 13 words, config word_vocab = 12"},
		{"config mismatch", func(_ *network.Params, m *Meta) { m.Config.LeakySlope = 0.2 }, Float32, "differs from the parameters' config"},
		{"NaN F1", func(_ *network.Params, m *Meta) { m.DevF1 = math.NaN() }, Float32, "dev_f1 = NaN"},
		{"invalid UTF-8", func(_ *network.Params, m *Meta) { m.TrainingData = "\xff" }, Float32, `meta entry "training_data" is not valid UTF-8`},
		{"reserved extra key", func(_ *network.Params, m *Meta) { m.Extra = map[string]string{"dtype": "x"} }, Float32, `extra key "dtype" is reserved`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := fx.p.Clone()
			m := testMeta(fx.c, fx.v)
			tc.edit(p, &m)
			err := Write(io.Discard, p, m, tc.dtype)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "weights: writing: ") {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestWriteDefaults: a zero Config and a zero Created are filled in.
func TestWriteDefaults(t *testing.T) {
	fx := newFixture(t)
	var b bytes.Buffer
	if err := Write(&b, fx.p, Meta{Vocab: fx.v}, Float32); err != nil {
		t.Fatal(err)
	}
	f, err := Read(b.Bytes(), "m")
	if err != nil {
		t.Fatal(err)
	}
	if f.Meta.Config != fx.c || f.Meta.Created.IsZero() || f.Meta.TestF1 != nil || f.Meta.Extra != nil {
		t.Errorf("meta %+v", f.Meta)
	}
}

func TestWriteFileReadMeta(t *testing.T) {
	fx := newFixture(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "model.safetensors")
	if err := os.WriteFile(path, []byte("old contents"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, dt := range allDTypes {
		if err := WriteFile(path, fx.p, testMeta(fx.c, fx.v), dt); err != nil {
			t.Fatal(err)
		}
		f, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if f.DType != dt || !bytes.Equal(mustRead(t, path), fx.data[dt]) {
			t.Errorf("%v: file differs from Write's output", dt)
		}
		h, err := ReadMeta(path)
		if err != nil {
			t.Fatal(err)
		}
		if h.Params != nil || h.DType != dt || h.Bytes != f.Bytes || h.TensorsSHA256 != f.TensorsSHA256 {
			t.Errorf("ReadMeta: %+v", h)
		}
		checkMeta(t, h.Meta, testMeta(fx.c, fx.v))
		if _, err := h.Model(); err == nil {
			t.Error("Model from ReadMeta: no error")
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want 1 (no temporary file left)", len(entries))
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the replaced file's -rw-------", st.Mode().Perm())
	}

	// ReadMeta sees truncation (from the size) but, by design, not a flipped
	// data byte; ReadFile sees both.
	data := fx.data[Float32]
	for _, tc := range []struct {
		name           string
		data           []byte
		meta, full     error
		fullSubstrings string
	}{
		{"truncated", data[:len(data)-4], ErrTruncated, ErrTruncated, "truncated"},
		{"flipped data", flipAt(data, len(data)-1), nil, ErrChecksum, "corrupt: tensors checksum mismatch"},
		{"short", data[:3], ErrTruncated, ErrTruncated, "too short"},
	} {
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadMeta(p); !errors.Is(err, tc.meta) && !(err == nil && tc.meta == nil) {
			t.Errorf("%s: ReadMeta: %v, want %v", tc.name, err, tc.meta)
		}
		_, err := ReadFile(p)
		if !errors.Is(err, tc.full) || !strings.Contains(err.Error(), tc.fullSubstrings) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: ReadFile: %v, want %v", tc.name, err, tc.full)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if err := WriteFile(filepath.Join(dir, "no", "such", "dir", "m"), fx.p, testMeta(fx.c, fx.v), Float32); err == nil {
		t.Error("WriteFile into a missing directory: no error")
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func flipAt(data []byte, i int) []byte {
	out := append([]byte(nil), data...)
	out[i] ^= 0xff
	return out
}

func TestParseDType(t *testing.T) {
	for _, dt := range allDTypes {
		if got, err := ParseDType(dt.String()); err != nil || got != dt {
			t.Errorf("ParseDType(%q) = %v, %v", dt.String(), got, err)
		}
	}
	if _, err := ParseDType("BF16"); err == nil {
		t.Error("ParseDType(BF16): no error")
	}
}
