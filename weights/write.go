package weights

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/discspan/discspan/internal/atomicfile"
	"github.com/discspan/discspan/network"
)

// Write writes p and m to w in the safetensors format (see the package
// documentation), with the tensors stored as dt. It refuses NaN and Inf
// values, values that overflow float16 when dt is Float16, a Meta whose
// configuration differs from p's, and a vocabulary whose sizes differ from
// the configuration.
func Write(w io.Writer, p *network.Params, m Meta, dt DType) error {
	return WriteEnsemble(w, []*network.Params{p}, m, dt)
}

// WriteEnsemble is Write for several models of one configuration (their
// dropout rates may differ; the file records the first model's), trained
// with the vocabulary of m, whose scores a parser averages (an ensemble;
// one model makes an ordinary file).
func WriteEnsemble(w io.Writer, members []*network.Params, m Meta, dt DType) error {
	if err := write(w, members, m, dt, time.Now); err != nil {
		return fmt.Errorf("weights: writing: %w", err)
	}
	return nil
}

func write(w io.Writer, members []*network.Params, m Meta, dt DType, now func() time.Time) error {
	if !dt.valid() {
		return fmt.Errorf("invalid dtype %v", dt)
	}
	if len(members) < 1 || len(members) > MaxMembers {
		return fmt.Errorf("%d models, want 1 to %d", len(members), MaxMembers)
	}
	for k, p := range members[1:] {
		// Dropout rates only matter in training: members may differ there.
		if p.Config().NoDropout() != members[0].Config().NoDropout() {
			return fmt.Errorf("ensemble member %d has config %+v, member 0 %+v", k+1, p.Config(), members[0].Config())
		}
	}
	tensors, err := plan(members, dt)
	if err != nil {
		return err
	}
	// Pass 1: the checksum of the data section, which the header holds.
	h := sha256.New()
	var buf []byte
	for _, t := range tensors {
		buf = t.encode(buf[:0])
		if int64(len(buf)) != t.size {
			return fmt.Errorf("tensor %q encodes to %d bytes, want %d", t.name, len(buf), t.size) // cannot happen
		}
		h.Write(buf)
	}
	kv, err := m.encode(members[0].Config(), len(members), dt, hex.EncodeToString(h.Sum(nil)), now)
	if err != nil {
		return err
	}
	header := buildHeader(kv, tensors)
	// Pass 2: the file.
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(header))))
	bw.Write(header)
	for _, t := range tensors {
		buf = t.encode(buf[:0])
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// buildHeader returns the JSON header: the metadata (keys sorted), then the
// tensors in data order, padded with spaces to a multiple of 8 bytes.
func buildHeader(kv map[string]string, tensors []stored) []byte {
	var b bytes.Buffer
	b.WriteString(`{"__metadata__":{`)
	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(jsonString(k))
		b.WriteByte(':')
		b.Write(jsonString(kv[k]))
	}
	b.WriteByte('}')
	var off int64
	for _, t := range tensors {
		b.WriteByte(',')
		b.Write(jsonString(t.name))
		b.WriteString(`:{"dtype":"` + t.dtype + `","shape":[`)
		for i, d := range t.shape {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(d))
		}
		fmt.Fprintf(&b, `],"data_offsets":[%d,%d]}`, off, off+t.size)
		off += t.size
	}
	b.WriteByte('}')
	for b.Len()%8 != 0 {
		b.WriteByte(' ')
	}
	return b.Bytes()
}

// WriteFile writes the file atomically: to a temporary file in the same
// directory, synced to disk, then renamed over path (mode 0644).
func WriteFile(path string, p *network.Params, m Meta, dt DType) error {
	return WriteEnsembleFile(path, []*network.Params{p}, m, dt)
}

// WriteEnsembleFile writes an ensemble (see WriteEnsemble) atomically, as
// WriteFile does.
func WriteEnsembleFile(path string, members []*network.Params, m Meta, dt DType) error {
	err := atomicfile.Write(path, func(w io.Writer) error { return write(w, members, m, dt, time.Now) })
	if err != nil {
		return fmt.Errorf("weights: %w", err)
	}
	return nil
}
