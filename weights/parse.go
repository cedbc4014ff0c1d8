package weights

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/discspan/discspan/network"
)

// maxHeader is the largest header accepted, as in the safetensors reference
// implementation.
const maxHeader = 100_000_000

// info is one tensor entry of the header.
type info struct {
	name       string
	dtype      string
	shape      []int
	begin, end int64 // relative to the data section
}

// header is a parsed and checked header.
type header struct {
	meta       Meta
	dtype      DType
	tensorsSHA string
	tensors    map[string]info
	members    int               // 1, or the size of an ensemble
	params     []*network.Params // zero parameters of the configuration, one per member kept (nil for the others)
}

func problem(kind error, err error, format string, args ...any) *Error {
	return &Error{Kind: kind, Detail: fmt.Sprintf(format, args...), Err: err}
}

// headerLength checks the 8-byte header length of a file of size bytes.
func headerLength(prefix []byte, size int64) (int64, *Error) {
	if size < 8 {
		return 0, problem(ErrTruncated, nil, "file is %d bytes, too short for the 8-byte header length", size)
	}
	n := binaryUint64(prefix)
	switch {
	case n > maxHeader:
		return 0, problem(ErrHeader, nil, "header length %d exceeds the limit of %d bytes (not a safetensors file?)", n, maxHeader)
	case int64(n) > size-8:
		return 0, problem(ErrTruncated, nil, "header length is %d bytes, but only %d bytes follow it (file truncated?)", n, size-8)
	case n < 2:
		return 0, problem(ErrHeader, nil, "header length %d is too small for a JSON object", n)
	}
	return int64(n), nil
}

func binaryUint64(b []byte) uint64 {
	var n uint64
	for i := 7; i >= 0; i-- {
		n = n<<8 | uint64(b[i])
	}
	return n
}

// parseHeader checks the JSON header of a file whose data section holds
// dataLen bytes, against itself, the safetensors rules and the network
// configuration it describes.
func parseHeader(hdr []byte, dataLen int64, keep func(member int) bool) (*header, *Error) {
	if !utf8.Valid(hdr) {
		i := 0
		for i < len(hdr) {
			r, size := utf8.DecodeRune(hdr[i:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			i += size
		}
		return nil, problem(ErrHeader, nil, "header is not valid UTF-8 (header byte %d, file byte %d)", i, i+8)
	}
	if hdr[0] != '{' {
		return nil, problem(ErrHeader, nil, "header does not start with '{' (it starts with %q)", hdr[0])
	}
	body := bytes.TrimRight(hdr, " ")
	if err := validJSON(body); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, problem(ErrHeader, err, "header is not JSON: %v (header byte %d, file byte %d)", err, se.Offset, se.Offset+8)
		}
		return nil, problem(ErrHeader, err, "header is not JSON: %v", err)
	}
	if body[len(body)-1] != '}' {
		return nil, problem(ErrHeader, nil, "header is padded with %q, want spaces (0x20)", body[len(body)-1])
	}
	fields, err := splitObject(body)
	if err != nil {
		return nil, problem(ErrHeader, err, "header: %v", err)
	}
	var metaRaw json.RawMessage
	var entries []field
	for _, f := range fields {
		if f.key == "__metadata__" {
			metaRaw = f.raw
		} else {
			entries = append(entries, f)
		}
	}
	if metaRaw == nil {
		return nil, problem(ErrMeta, nil, "header has no __metadata__ (not a discspan weights file)")
	}
	kv, e := parseMetadata(metaRaw)
	if e != nil {
		return nil, e
	}
	h := &header{tensors: make(map[string]info, len(entries))}
	if h.meta, h.dtype, h.tensorsSHA, e = decodeMeta(kv); e != nil {
		return nil, e
	}
	if h.members, e = decodeMembers(kv); e != nil {
		return nil, e
	}
	list := make([]info, 0, len(entries))
	for _, f := range entries {
		t, e := parseInfo(f)
		if e != nil {
			return nil, e
		}
		list = append(list, t)
		h.tensors[t.name] = t
	}
	if e := checkLayout(list, dataLen); e != nil {
		return nil, e
	}
	if h.params, e = checkTensors(h, dataLen, keep); e != nil {
		return nil, e
	}
	return h, nil
}

// validJSON returns nil for valid JSON, else the decoder's syntax error.
func validJSON(data []byte) error {
	if json.Valid(data) {
		return nil
	}
	var v json.RawMessage
	return json.Unmarshal(data, &v)
}

// parseMetadata returns the __metadata__ entries, which must all be strings.
func parseMetadata(raw json.RawMessage) (map[string]string, *Error) {
	fields, err := splitObject(raw)
	if err != nil {
		return nil, problem(ErrMeta, err, "__metadata__: %v", err)
	}
	kv := make(map[string]string, len(fields))
	for _, f := range fields {
		s, err := jsonStringValue(f.raw)
		if err != nil || len(f.raw) == 0 || f.raw[0] != '"' {
			return nil, problem(ErrMeta, nil, "metadata %q is %s, want a string (safetensors metadata values are strings)", f.key, clip(f.raw))
		}
		kv[f.key] = s
	}
	return kv, nil
}

// clip returns a JSON value shortened for an error message.
func clip(raw []byte) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "..."
	}
	return string(raw)
}

// parseInfo parses a tensor entry: exactly dtype, shape and data_offsets.
func parseInfo(f field) (info, *Error) {
	t := info{name: f.key}
	fields, err := splitObject(f.raw)
	if err != nil {
		return t, problem(ErrHeader, err, "tensor %q: %v", f.key, err)
	}
	var dtype, shape, offsets json.RawMessage
	for _, g := range fields {
		switch g.key {
		case "dtype":
			dtype = g.raw
		case "shape":
			shape = g.raw
		case "data_offsets":
			offsets = g.raw
		default:
			return t, problem(ErrHeader, nil, "tensor %q has unknown field %q", f.key, g.key)
		}
	}
	for _, m := range []struct {
		name string
		raw  json.RawMessage
	}{{"dtype", dtype}, {"shape", shape}, {"data_offsets", offsets}} {
		if m.raw == nil || string(m.raw) == "null" {
			return t, problem(ErrHeader, nil, "tensor %q has no %s", f.key, m.name)
		}
	}
	var err2 error
	if t.dtype, err2 = jsonStringValue(dtype); err2 != nil || dtype[0] != '"' {
		return t, problem(ErrHeader, err2, "tensor %q: dtype is %s, want a string", f.key, clip(dtype))
	}
	if !knownDType(t.dtype) {
		return t, problem(ErrDType, nil, "tensor %q has unknown dtype %q", f.key, t.dtype)
	}
	if tensorElemSize(t.dtype) == 0 {
		return t, problem(ErrDType, nil, "tensor %q has dtype %s, which discspan does not read (F32, F16, I8, U8)", f.key, t.dtype)
	}
	var dims []uint64
	if err := json.Unmarshal(shape, &dims); err != nil {
		return t, problem(ErrHeader, err, "tensor %q: shape is %s, want an array of non-negative integers", f.key, clip(shape))
	}
	var off []uint64
	if err := json.Unmarshal(offsets, &off); err != nil || len(off) != 2 {
		return t, problem(ErrHeader, err, "tensor %q: data_offsets is %s, want [begin, end]", f.key, clip(offsets))
	}
	if off[0] > off[1] {
		return t, problem(ErrLayout, nil, "tensor %q: data_offsets [%d, %d] run backwards (out of order)", f.key, off[0], off[1])
	}
	if off[1] > 1<<62 {
		return t, problem(ErrLayout, nil, "tensor %q: data_offsets [%d, %d] are implausibly large", f.key, off[0], off[1])
	}
	t.begin, t.end = int64(off[0]), int64(off[1])
	need, overflow := uint64(tensorElemSize(t.dtype)), false
	t.shape = make([]int, len(dims))
	for i, d := range dims {
		hi, lo := bits.Mul64(need, d)
		overflow = overflow || hi != 0 || d > 1<<62
		need = lo
		t.shape[i] = int(min(d, 1<<62))
	}
	if overflow || need != off[1]-off[0] {
		needs := fmt.Sprintf("%d bytes", need)
		if overflow {
			needs = "more than 2^64 bytes"
		}
		return t, problem(ErrLayout, nil, "tensor %q: shape %v of %s needs %s, data_offsets [%d, %d] hold %d",
			f.key, t.shape, t.dtype, needs, off[0], off[1], off[1]-off[0])
	}
	return t, nil
}

// checkLayout checks that the tensors tile the data section exactly: no
// overlap, no gap, nothing past its end and nothing after the last tensor.
func checkLayout(list []info, dataLen int64) *Error {
	sorted := slices.Clone(list)
	slices.SortFunc(sorted, func(a, b info) int {
		if a.begin != b.begin {
			return cmpInt(a.begin, b.begin)
		}
		if a.end != b.end {
			return cmpInt(a.end, b.end)
		}
		return strings.Compare(a.name, b.name)
	})
	for _, t := range sorted {
		if t.end > dataLen {
			return problem(ErrTruncated, nil, "tensor %q ends at data byte %d, but the data section has only %d bytes (file truncated?)", t.name, t.end, dataLen)
		}
	}
	var prev *info
	var at int64
	for i := range sorted {
		t := &sorted[i]
		switch {
		case t.begin < at:
			return problem(ErrLayout, nil, "tensors %q [%d, %d] and %q [%d, %d] overlap", prev.name, prev.begin, prev.end, t.name, t.begin, t.end)
		case t.begin > at && prev == nil:
			return problem(ErrLayout, nil, "gap of %d bytes before the first tensor %q [%d, %d]", t.begin-at, t.name, t.begin, t.end)
		case t.begin > at:
			return problem(ErrLayout, nil, "gap of %d bytes between tensors %q [%d, %d] and %q [%d, %d]", t.begin-at, prev.name, prev.begin, prev.end, t.name, t.begin, t.end)
		}
		at, prev = t.end, t
	}
	if at < dataLen {
		return problem(ErrLayout, nil, "%d bytes of data after the last tensor (data section is %d bytes, tensors end at %d)", dataLen-at, dataLen, at)
	}
	return nil
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
