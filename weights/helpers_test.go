package weights

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/discspan/discspan/network"
)

// fakeVocab returns a vocabulary of the given sizes (reserved entries
// included).
func fakeVocab(t testing.TB, words, chars, labels, tags int) *network.Vocab {
	t.Helper()
	v := struct {
		Words  []string `json:"words"`
		Chars  []string `json:"chars"`
		Labels []string `json:"labels"`
		Tags   []string `json:"tags"`
	}{
		Words: []string{"<unk>", "<bos>", "<eos>"},
		Chars: []string{"<unk>", "<bow>", "<eow>", "<bos>", "<eos>"},
	}
	for i := len(v.Words); i < words; i++ {
		v.Words = append(v.Words, fmt.Sprintf("w%d", i))
	}
	for r := 'A'; len(v.Chars) < chars; r++ {
		v.Chars = append(v.Chars, string(r))
	}
	for i := 0; i < labels; i++ {
		v.Labels = append(v.Labels, fmt.Sprintf("L%d", i))
	}
	for i := 0; i < tags; i++ {
		v.Tags = append(v.Tags, fmt.Sprintf("t%d", i))
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	out := new(network.Vocab)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
	return out
}

// smallConfig is a small network for tests, sized for v.
func smallConfig(v *network.Vocab) network.Config {
	return network.Config{
		WordDim: 16, CharDim: 8, CharHidden: 8, MaxChars: 20, LSTM1Hidden: 24, LSTM2Hidden: 20,
		LabelMLP: 12, SpanMLP: 16,
		DropChar: 0.3, DropFeat: 0.3, DropLSTM: 0.3, DropMLP: 0.33, LeakySlope: 0.1,
	}.WithVocab(v)
}

// microConfig is the smallest sensible network (fuzz seeds).
func microConfig(v *network.Vocab) network.Config {
	return network.Config{
		WordDim: 2, CharDim: 2, CharHidden: 1, MaxChars: 3, LSTM1Hidden: 2, LSTM2Hidden: 1,
		LabelMLP: 1, SpanMLP: 1, LeakySlope: 0.1,
	}.WithVocab(v)
}

// randomModel returns network.New(c, seed) with its zero-initialised
// tensors (biases, biaffines) made random too, so that scores are not
// trivially zero.
func randomModel(t testing.TB, c network.Config, seed uint64) *network.Model {
	t.Helper()
	m, err := network.New(c, seed)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	for _, ts := range m.Params.Tensors() {
		zero := true
		for _, v := range ts.Data {
			zero = zero && v == 0
		}
		if zero {
			for i := range ts.Data {
				ts.Data[i] = float32(0.3 * rng.NormFloat64())
			}
		}
	}
	return m
}

var testCreated = time.Date(2025, 3, 14, 15, 9, 26, 0, time.UTC)

func testMeta(c network.Config, v *network.Vocab) Meta {
	test := 81.5
	return Meta{
		Config: c, Vocab: v, TrainingData: "alpino-train.export", DevF1: 84.25, DevDiscF1: 61.5,
		TestF1: &test, Epochs: 12, Created: testCreated,
		CreatedBy: "discspan train -preset tiny alpino-train.export", Extra: map[string]string{"note": "test"},
	}
}

// encode writes p with testMeta to memory.
func encode(t testing.TB, p *network.Params, v *network.Vocab, dt DType) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, p, testMeta(p.Config(), v), dt); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// rawTensor is a tensor of a rawFile.
type rawTensor struct {
	Name    string
	DType   string
	Shape   []int
	Data    []byte
	Offsets *[2]int64 // when set, written instead of the computed offsets
	Skip    bool      // data written, header entry left out
}

// rawFile is a safetensors file decoded independently of the package's
// reader (encoding/json into maps), for interop checks and for building
// corrupt files.
type rawFile struct {
	N       int // header length
	Header  map[string]json.RawMessage
	Meta    map[string]string
	Tensors []rawTensor // in data order
}

// parseRaw decodes a safetensors file by the specification's rules.
func parseRaw(t testing.TB, data []byte) rawFile {
	t.Helper()
	if len(data) < 8 {
		t.Fatalf("file of %d bytes", len(data))
	}
	n := int(binary.LittleEndian.Uint64(data))
	if 8+n > len(data) {
		t.Fatalf("header length %d, file %d", n, len(data))
	}
	r := rawFile{N: n}
	if err := json.Unmarshal(data[8:8+n], &r.Header); err != nil {
		t.Fatalf("header JSON: %v", err)
	}
	if err := json.Unmarshal(r.Header["__metadata__"], &r.Meta); err != nil {
		t.Fatalf("__metadata__ is not an object of strings: %v", err)
	}
	body := data[8+n:]
	for name, raw := range r.Header {
		if name == "__metadata__" {
			continue
		}
		var e struct {
			DType   string  `json:"dtype"`
			Shape   []int   `json:"shape"`
			Offsets []int64 `json:"data_offsets"`
		}
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatalf("tensor %s: %v", name, err)
		}
		if len(e.Offsets) != 2 || e.Offsets[0] > e.Offsets[1] || e.Offsets[1] > int64(len(body)) {
			t.Fatalf("tensor %s: offsets %v, data section %d bytes", name, e.Offsets, len(body))
		}
		off := [2]int64{e.Offsets[0], e.Offsets[1]}
		r.Tensors = append(r.Tensors, rawTensor{Name: name, DType: e.DType, Shape: e.Shape, Data: slices.Clone(body[off[0]:off[1]]), Offsets: &off})
	}
	sort.Slice(r.Tensors, func(i, j int) bool { return r.Tensors[i].Offsets[0] < r.Tensors[j].Offsets[0] })
	for i := range r.Tensors {
		r.Tensors[i].Offsets = nil
	}
	return r
}

// tensor returns the tensor with the given name.
func (r *rawFile) tensor(t testing.TB, name string) *rawTensor {
	t.Helper()
	for i := range r.Tensors {
		if r.Tensors[i].Name == name {
			return &r.Tensors[i]
		}
	}
	t.Fatalf("no tensor %q", name)
	return nil
}

// encode returns the file: the metadata and tensors as they are, offsets
// computed (unless overridden), and, when fixSums, tensors_sha256 and
// metadata_sha256 recomputed.
func (r rawFile) encode(fixSums bool) []byte {
	var body []byte
	for _, t := range r.Tensors {
		body = append(body, t.Data...)
	}
	meta := maps.Clone(r.Meta)
	if fixSums {
		sum := sha256.Sum256(body)
		meta["tensors_sha256"] = hex.EncodeToString(sum[:])
		meta["metadata_sha256"] = metadataSHA256(meta)
	}
	var h bytes.Buffer
	h.WriteString("{")
	if meta != nil {
		m, _ := json.Marshal(meta)
		h.WriteString(`"__metadata__":`)
		h.Write(m)
	}
	var off int64
	for _, t := range r.Tensors {
		o := [2]int64{off, off + int64(len(t.Data))}
		if t.Offsets != nil {
			o = *t.Offsets
		}
		off += int64(len(t.Data))
		if t.Skip {
			continue
		}
		if h.Len() > 1 {
			h.WriteString(",")
		}
		e, _ := json.Marshal(map[string]any{"dtype": t.DType, "shape": t.Shape, "data_offsets": o})
		fmt.Fprintf(&h, "%q:%s", t.Name, e)
	}
	h.WriteString("}")
	for h.Len()%8 != 0 {
		h.WriteByte(' ')
	}
	return assemble(h.Bytes(), body)
}

// assemble returns length + header + body.
func assemble(header, body []byte) []byte {
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	return append(append(out, header...), body...)
}

// tinyConfig is network.Tiny sized for v.
func tinyConfig(v *network.Vocab) network.Config { return network.Tiny().WithVocab(v) }

// allDTypes lists every storage type, for tests that run over each.
var allDTypes = []DType{Float32, Float16, Int8, Int4}
