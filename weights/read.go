package weights

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/discspan/discspan/network"
)

// File is a loaded weights file: one model, or an ensemble of models of one
// configuration and vocabulary whose scores are averaged.
type File struct {
	Meta Meta
	// Members holds the parameters of every model, every tensor converted
	// to float32 (one entry for a single model; nil from ReadMeta).
	Members []*network.Params
	// Params is the first member (the model itself in a single-model file).
	Params   *network.Params
	Ensemble int   // number of models: 1, or the members of an ensemble
	DType    DType // how the tensors are stored
	Bytes    int   // file size in bytes
	// TensorsSHA256 is the hex SHA-256 of the data section (the
	// tensors_sha256 entry), an identifier of the weights.
	TensorsSHA256 string
}

// Model returns a network.Model using f.Params (shared, not copied). It
// refuses an ensemble, whose models must be used together (see Models).
func (f *File) Model() (*network.Model, error) {
	if len(f.Members) > 1 {
		return nil, fmt.Errorf("weights: an ensemble of %d models: use all of them (Models), not one", len(f.Members))
	}
	models, err := f.Models()
	if err != nil {
		return nil, err
	}
	return models[0], nil
}

// Models returns one network.Model per member (parameters shared, not
// copied).
func (f *File) Models() ([]*network.Model, error) {
	if len(f.Members) == 0 {
		return nil, errors.New("weights: no parameters loaded (File from ReadMeta)")
	}
	out := make([]*network.Model, len(f.Members))
	for k, p := range f.Members {
		if p.Config() != f.Meta.Config {
			return nil, fmt.Errorf("weights: parameters shaped for %+v, metadata config is %+v", p.Config(), f.Meta.Config)
		}
		out[k] = &network.Model{Params: p}
	}
	return out, nil
}

// ReadFile reads and checks the weights file at path (see Read). An I/O
// error is returned wrapped (errors.Is(err, fs.ErrNotExist) works), a
// problem with the contents as an *Error naming path.
func ReadFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("weights: %w", err)
	}
	return Read(data, path)
}

// Read decodes and checks a weights file held in data; name (a file name or
// path) is used in error messages. It checks everything: the header length
// and JSON, every tensor's dtype, shape and byte range, that the tensors
// tile the data section, that they are exactly those the configuration
// needs, the metadata (format, version, checksums, config, vocabulary), the
// SHA-256 of the data section, and that no value is NaN or infinite. Errors
// are of type *Error and match one of the Err* kinds.
func Read(data []byte, name string) (*File, error) {
	f, e := read(data, func(int) bool { return true })
	if e != nil {
		e.Name = name
		return nil, e
	}
	return f, nil
}

// DataSHA256 hashes the data section of a file being read, to check it
// against its tensors_sha256 (sha256.Sum256). The browser app's worker
// replaces it with the browser's own SHA-256 (crypto.subtle), native code
// several times faster than Go's in wasm; set it before any Read.
var DataSHA256 = sha256.Sum256

// ReadMember is Read for the one member k (counted from 0) of the file
// held in data: it checks the whole file as Read does (the header, every
// tensor's name, shape and dtype, the data section's SHA-256) but converts
// and checks the values of member k's tensors only, and spends no memory
// on the others'. The File's Members and Params are member k; Ensemble
// still counts the file's models. A Web Worker that scores one model of an
// ensemble holds that one.
func ReadMember(data []byte, name string, k int) (*File, error) {
	f, e := read(data, func(m int) bool { return m == k })
	if e != nil {
		e.Name = name
		return nil, e
	}
	if k < 0 || k >= f.Ensemble {
		return nil, fmt.Errorf("weights: %s has %d models, no model %d", name, f.Ensemble, k)
	}
	f.Members = []*network.Params{f.Members[k]}
	f.Params = f.Members[0]
	return f, nil
}

// read decodes the file; only the members that keep keeps are converted.
func read(data []byte, keep func(member int) bool) (*File, *Error) {
	n, e := headerLength(data, int64(len(data)))
	if e != nil {
		return nil, e
	}
	body := data[8+n:]
	h, e := parseHeader(data[8:8+n], int64(len(body)), keep)
	if e != nil {
		return nil, e
	}
	sum := DataSHA256(body)
	if got := hex.EncodeToString(sum[:]); got != h.tensorsSHA {
		return nil, checksumError(h.tensorsSHA, got)
	}
	for k, p := range h.params {
		if p == nil {
			continue
		}
		for _, t := range p.Tensors() {
			if e := decodeTensor(t, memberPrefix(k, h.members)+t.Name, h, body); e != nil {
				return nil, e
			}
		}
	}
	return &File{Meta: h.meta, Members: h.params, Params: h.params[0], Ensemble: h.members, DType: h.dtype,
		Bytes: len(data), TensorsSHA256: h.tensorsSHA}, nil
}

// decodeTensor converts the stored values of t, stored as name, to float32.
func decodeTensor(t *network.Tensor, name string, h *header, body []byte) *Error {
	in := h.tensors[name]
	raw := body[in.begin:in.end]
	switch h.dtype {
	case Float32:
		for i := range t.Data {
			t.Data[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
	case Float16:
		for i := range t.Data {
			t.Data[i] = fromHalf(binary.LittleEndian.Uint16(raw[2*i:]))
		}
	case Int8, Int4:
		sc := h.tensors[name+scaleSuffix]
		scales := make([]float32, (sc.end-sc.begin)/4)
		for r := range scales {
			s := math.Float32frombits(binary.LittleEndian.Uint32(body[sc.begin+4*int64(r):]))
			if !(s >= 0) || math.IsInf(float64(s), 0) {
				return problem(ErrValue, nil, "scale tensor %q has %v at [%d], want a finite scale >= 0", sc.name, s, r)
			}
			scales[r] = s
		}
		// Row by row, with no division per value (this runs at every
		// start of the app, in wasm). A value is at most 128 times its
		// row's scale: with every such bound finite, no value can be
		// NaN or infinite and the check below is skipped.
		_, cols := rows(t.Shape)
		c := max(cols, 1)
		finite := true
		for _, s := range scales {
			finite = finite && !math.IsInf(float64(128*s), 0)
		}
		if in.dtype == "U8" { // an Int4 matrix
			unpackInt4(t.Data, raw, scales, cols)
		} else {
			for r, s := range scales {
				row, dst := raw[r*c:min((r+1)*c, len(raw))], t.Data[r*c:min((r+1)*c, len(t.Data))]
				for i := range dst {
					dst[i] = float32(int8(row[i])) * s
				}
			}
		}
		if finite {
			return nil
		}
	}
	for i, v := range t.Data {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return problem(ErrValue, nil, "tensor %q has %v at %v", name, v, unflatten(i, t.Shape))
		}
	}
	return nil
}

// unflatten returns the multi-index of flat index i in a row-major tensor.
func unflatten(i int, shape []int) []int {
	idx := make([]int, len(shape))
	for k := len(shape) - 1; k >= 0; k-- {
		if shape[k] > 0 {
			idx[k] = i % shape[k]
			i /= shape[k]
		}
	}
	return idx
}

// ReadMeta reads and checks only the header of the weights file at path
// (cheap: the tensor data is neither read nor hashed). It performs every
// check of Read except the data checksum and the values, and returns a File
// whose Params is nil.
func ReadMeta(path string) (*File, error) {
	return readMetaFile(path, nil)
}

// readMetaFile opens the weights file at path and reads its header (see
// readMeta); then, when rest is not nil, it calls rest with the file
// positioned at the data section. An *Error from either is named path.
func readMetaFile(path string, rest func(f *File, data io.Reader) *Error) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("weights: %w", err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, fmt.Errorf("weights: %w", err)
	}
	f, e := readMeta(fh, st.Size())
	if e == nil && rest != nil {
		e = rest(f, fh)
	}
	if e != nil {
		e.Name = path
		return nil, e
	}
	return f, nil
}

func readMeta(r io.Reader, size int64) (*File, *Error) {
	var prefix [8]byte
	if size >= 8 {
		if _, err := io.ReadFull(r, prefix[:]); err != nil {
			return nil, problem(ErrTruncated, err, "reading the header length: %v", err)
		}
	}
	n, e := headerLength(prefix[:], size)
	if e != nil {
		return nil, e
	}
	hdr := make([]byte, n)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return nil, problem(ErrTruncated, err, "reading the header: %v", err)
	}
	h, e := parseHeader(hdr, size-8-n, func(int) bool { return false })
	if e != nil {
		return nil, e
	}
	return &File{Meta: h.meta, Ensemble: h.members, DType: h.dtype, Bytes: int(size), TensorsSHA256: h.tensorsSHA}, nil
}

// ReadMetaBytes is ReadMeta for a file in memory (a browser holds the
// downloaded weights): it reads only the header.
func ReadMetaBytes(data []byte, name string) (*File, error) {
	f, e := readMeta(bytes.NewReader(data), int64(len(data)))
	if e != nil {
		e.Name = name
		return nil, e
	}
	return f, nil
}
