package train

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/discspan/discspan/internal/atomicfile"
	"github.com/discspan/discspan/network"
)

// checkpointMagic opens every checkpoint file: the magic line, the gob
// encoding of the checkpoint, and (since version 2) the SHA-256 of all that
// as the last 32 bytes, checked before the checkpoint is decoded, as weight
// files are. Version 1 files have no checksum; they are read unchecked.
const (
	checkpointMagic   = "discspan-train-checkpoint 2\n"
	checkpointMagicV1 = "discspan-train-checkpoint 1\n"
)

// settings are what a run was started with and a resumed run must keep.
type settings struct {
	Preset        string
	Config        network.Config // with the vocabulary's sizes
	Adam          network.AdamConfig
	MaxBatchWords int
	Seed          uint64
	EMA           float64 // decay of the parameter average; 0: none
	WordDropout   float64 // alpha of word dropout; 0: none
	// Teacher is the distillation teacher's file ("": none), TeacherWeight
	// its share of the targets, TeacherTemperature what its scores are
	// divided by (0 in checkpoints older than the field: 1) and
	// TeacherSHA256 its tensors' hash, to check that a resumed run reads
	// the same teacher.
	// Epochs is the run's epoch count (Options.Epochs), kept by a resumed
	// run that names none; 0 in checkpoints older than the field.
	Epochs             int     `json:",omitempty"`
	HoldOut            int     `json:",omitempty"` // Options.HoldOut and Folds
	Folds              int     `json:",omitempty"`
	Teacher            string  `json:",omitempty"`
	TeacherWeight      float64 `json:",omitempty"`
	TeacherTemperature float64 `json:",omitempty"`
	TeacherSHA256      string  `json:",omitempty"`
	// Init is the file the parameters started from ("": random),
	// InitMember the model of it (0: its one model) and InitSHA256 its
	// tensors' hash; Hinge the structured loss's weight.
	Init       string  `json:",omitempty"`
	InitMember int     `json:",omitempty"`
	InitSHA256 string  `json:",omitempty"`
	Hinge      float64 `json:",omitempty"`
	Workers    int     // resolved (never 0)
	Train, Dev string
	TrainHash  string
	DevHash    string `json:",omitempty"` // absent in checkpoints that predate it
}

// teacherTemperature returns what the teacher's scores are divided by:
// the recorded temperature, or the default for checkpoints that predate it.
func (s settings) teacherTemperature() float64 {
	if s.TeacherTemperature == 0 {
		return DefaultTeacherTemperature
	}
	return s.TeacherTemperature
}

// state is the position of a run and what it has learnt about itself.
type state struct {
	Epoch int // epochs completed
	Batch int // batches done in epoch Epoch+1; all of them: evaluation pending
	// Sums over the current epoch's batches.
	LossSum  float64 // loss.Total * sentences
	Sents    int
	Words    int
	Seconds  float64 // training wall time
	LastLR   float64
	BestF1   float64
	BestDisc float64
	Best     int // epoch of the best dev F1; 0: none yet
	History  []EpochLog
}

// rawTensor is a tensor with its float32 values as little-endian bytes
// (gob writes floats one by one, slowly and in more bytes).
type rawTensor struct {
	Name  string
	Shape []int
	Data  []byte
}

// checkpoint is the content of a checkpoint file.
type checkpoint struct {
	Settings settings
	Vocab    []byte // JSON (network.Vocab rebuilds its indexes from JSON)
	Params   []rawTensor
	AdamStep int
	AdamM    []rawTensor
	AdamV    []rawTensor
	Best     []rawTensor // nil until an epoch was evaluated
	EMA      []rawTensor // the parameter average; nil without EMA
	State    state
}

func toRaw(ts []*network.Tensor) []rawTensor {
	out := make([]rawTensor, len(ts))
	for i, t := range ts {
		b := make([]byte, 4*len(t.Data))
		for j, v := range t.Data {
			binary.LittleEndian.PutUint32(b[4*j:], math.Float32bits(v))
		}
		out[i] = rawTensor{Name: t.Name, Shape: t.Shape, Data: b}
	}
	return out
}

func tensorsOf(ts []network.Tensor) []*network.Tensor {
	out := make([]*network.Tensor, len(ts))
	for i := range ts {
		out[i] = &ts[i]
	}
	return out
}

// fromRaw turns raw tensors back into float32 tensors.
func fromRaw(rs []rawTensor) ([]network.Tensor, error) {
	out := make([]network.Tensor, len(rs))
	for i, r := range rs {
		if len(r.Data)%4 != 0 {
			return nil, fmt.Errorf("tensor %s: %d bytes", r.Name, len(r.Data))
		}
		d := make([]float32, len(r.Data)/4)
		for j := range d {
			d[j] = math.Float32frombits(binary.LittleEndian.Uint32(r.Data[4*j:]))
		}
		out[i] = network.Tensor{Name: r.Name, Shape: r.Shape, Data: d}
	}
	return out, nil
}

// paramsFromRaw rebuilds parameters for c from raw tensors, checking every
// name and shape.
func paramsFromRaw(c network.Config, rs []rawTensor) (*network.Params, error) {
	p, err := network.NewParams(c)
	if err != nil {
		return nil, err
	}
	ts, err := fromRaw(rs)
	if err != nil {
		return nil, err
	}
	if len(ts) != len(p.Names()) {
		return nil, fmt.Errorf("%d tensors, want %d", len(ts), len(p.Names()))
	}
	for _, t := range ts {
		if err := p.Set(t.Name, t.Shape, t.Data); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// writeCheckpoint writes c to path atomically.
func writeCheckpoint(path string, c *checkpoint) error {
	err := atomicfile.Write(path, func(w io.Writer) error {
		sum := sha256.New()
		hw := io.MultiWriter(w, sum)
		if _, err := io.WriteString(hw, checkpointMagic); err != nil {
			return err
		}
		if err := gob.NewEncoder(hw).Encode(c); err != nil {
			return err
		}
		_, err := w.Write(sum.Sum(nil))
		return err
	})
	if err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	return nil
}

// ErrBadCheckpoint is wrapped by the error of a resume whose checkpoint
// cannot be read (not a checkpoint, damaged, truncated): training can only
// start again from the beginning, without it.
var ErrBadCheckpoint = errors.New("the checkpoint cannot be read")

// readCheckpoint reads a checkpoint file; an error of its contents wraps
// ErrBadCheckpoint.
func readCheckpoint(path string) (*checkpoint, error) {
	c, err := readCheckpointFile(path)
	var pe *os.PathError
	if err != nil && !errors.As(err, &pe) {
		err = &badCheckpointError{err}
	}
	return c, err
}

// badCheckpointError is an error of a checkpoint's contents.
type badCheckpointError struct{ err error }

func (e *badCheckpointError) Error() string { return e.err.Error() }
func (e *badCheckpointError) Unwrap() []error {
	return []error{e.err, ErrBadCheckpoint}
}

// readCheckpointFile reads a checkpoint file.
func readCheckpointFile(path string) (*checkpoint, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("train: checkpoint: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	magic := make([]byte, len(checkpointMagic))
	if _, err := io.ReadFull(r, magic); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, fmt.Errorf("train: checkpoint %s: %w", path, err) // the disk's, not the file's
	} else if err != nil || (string(magic) != checkpointMagic && string(magic) != checkpointMagicV1) {
		return nil, fmt.Errorf("train: checkpoint %s: not a discspan training checkpoint", path)
	}
	if string(magic) == checkpointMagic {
		if err := verifyChecksum(f); err != nil {
			return nil, fmt.Errorf("train: checkpoint %s: %w (the file is damaged: delete it to train from the start)", path, err)
		}
		if _, err := f.Seek(int64(len(magic)), io.SeekStart); err != nil {
			return nil, fmt.Errorf("train: checkpoint %s: %w", path, err)
		}
		r.Reset(f)
	}
	var c checkpoint
	if err := gob.NewDecoder(r).Decode(&c); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			err = fmt.Errorf("truncated: %w", err)
		}
		return nil, fmt.Errorf("train: checkpoint %s: %w", path, err)
	}
	return &c, nil
}

// verifyChecksum checks that the last 32 bytes of f are the SHA-256 of
// the bytes before them. It reads the whole file.
func verifyChecksum(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	n := fi.Size() - sha256.Size
	if n < int64(len(checkpointMagic)) {
		return errors.New("truncated: no checksum")
	}
	sum := sha256.New()
	if _, err := io.Copy(sum, io.NewSectionReader(f, 0, n)); err != nil {
		return err
	}
	want := make([]byte, sha256.Size)
	if _, err := f.ReadAt(want, n); err != nil {
		return err
	}
	if got := sum.Sum(nil); !bytes.Equal(got, want) {
		return fmt.Errorf("SHA-256 of the contents %x, the file says %x", got[:8], want[:8])
	}
	return nil
}

// vocabOf decodes the checkpoint's vocabulary.
func (c *checkpoint) vocabOf() (*network.Vocab, error) {
	var v network.Vocab
	if err := json.Unmarshal(c.Vocab, &v); err != nil {
		return nil, err
	}
	return &v, nil
}
