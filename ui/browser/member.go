package browser

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync"
	"unsafe"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/scorer"
)

// An ensemble's models 1, 2, ... score in Web Workers of their own, started
// by the parsing worker (Member), while the parsing worker scores model 0:
// a member worker is the same main.wasm, serving two more requests
//
//	parsing worker → member: {id, op: "member-load", json: memberLoad, bytes: the weights file}
//	                         {id, op: "score", json: the batch ([]network.Input)}
//	member → parsing worker: {id, json} or {id, err}; a score's answer is
//	                         {id, json: scoreAnswer, bytes: the scores}
//
// where the scores are every result's cont, disc, gap and tag logits, in
// order, as float32 little-endian (packResults), in a buffer transferred,
// not copied, between the workers.

// memberLoad is the JSON of a "member-load" request: the member's model
// is model Member of the weights file (Name names it in errors).
type memberLoad struct {
	Name   string `json:"name"`
	Member int    `json:"member"`
}

// memberLoaded is the JSON answer to a "member-load": the member's memory
// once its model is loaded (see memoryBytes).
type memberLoaded struct {
	Memory int64 `json:"memory"`
}

// resultShape is one result's shape in a scoreAnswer: n words, l labels,
// tags tag logits; NoScores for a result without scores.
type resultShape struct {
	N        int  `json:"n"`
	L        int  `json:"l"`
	Tags     int  `json:"tags"`
	NoScores bool `json:"no_scores,omitempty"`
}

// scoreAnswer is the JSON of a "score" answer.
type scoreAnswer struct {
	Results []resultShape `json:"results"`
}

// packResults flattens outs into an answer and its bytes.
func packResults(outs []network.Output) (scoreAnswer, []byte) {
	a := scoreAnswer{Results: make([]resultShape, len(outs))}
	size := 0
	for i, o := range outs {
		sh := resultShape{Tags: len(o.Tags), NoScores: o.Scores == nil}
		if o.Scores != nil {
			sh.N, sh.L = o.Scores.N, o.Scores.L
			size += len(o.Scores.Cont) + len(o.Scores.Disc) + len(o.Scores.Gap)
		}
		size += len(o.Tags)
		a.Results[i] = sh
	}
	flat := make([]float32, 0, size)
	for _, o := range outs {
		if o.Scores != nil {
			flat = append(flat, o.Scores.Cont...)
			flat = append(flat, o.Scores.Disc...)
			flat = append(flat, o.Scores.Gap...)
		}
		flat = append(flat, o.Tags...)
	}
	b := floatBytes(flat)
	if !littleEndian {
		b = make([]byte, 0, 4*len(flat))
		for _, x := range flat {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	return a, b
}

// unpackResults is the inverse of packResults; it checks that the shapes
// and the bytes agree.
func unpackResults(a scoreAnswer, b []byte) ([]network.Output, error) {
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("member scores: %d bytes, not a whole number of float32", len(b))
	}
	// One copy of the bytes into float32s, which the results then share.
	all := make([]float32, len(b)/4)
	if littleEndian {
		copy(floatBytes(all), b)
	} else {
		for i := range all {
			all[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
	}
	at := 0
	take := func(n int) ([]float32, error) {
		if n < 0 || n > len(all)-at {
			return nil, fmt.Errorf("member scores: %d bytes, shorter than the %d results' shapes say", len(b), len(a.Results))
		}
		v := all[at : at+n : at+n]
		at += n
		return v, nil
	}
	outs := make([]network.Output, len(a.Results))
	for i, sh := range a.Results {
		if !sh.NoScores {
			if sh.N < 0 || sh.L < 0 || sh.N > math.MaxInt32/max(1, sh.N*max(1, sh.L)) {
				return nil, fmt.Errorf("member scores: result %d has shape n=%d l=%d", i, sh.N, sh.L)
			}
			s := &decode.Scores{N: sh.N, L: sh.L}
			var err error
			for _, t := range []*[]float32{&s.Cont, &s.Disc, &s.Gap} {
				if *t, err = take(sh.N * sh.N * sh.L); err != nil {
					return nil, err
				}
			}
			outs[i].Scores = s
		}
		tags, err := take(sh.Tags)
		if err != nil {
			return nil, err
		}
		if sh.Tags > 0 {
			outs[i].Tags = tags
		}
	}
	if at != len(all) {
		return nil, fmt.Errorf("member scores: %d bytes, %d more than the results' shapes say", len(b), len(b)-4*at)
	}
	return outs, nil
}

// littleEndian is set where float32s are stored little-endian (wasm,
// amd64, arm64): the scores then cross as the bytes of their float32s.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// floatBytes is the bytes of v (no copy).
func floatBytes(v []float32) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), 4*len(v))
}

// memberConn is a connection to a worker that holds one model: send
// sends a batch off and returns a function that waits for the model's
// results; errors wrapping errMemberFailed mean the worker can no longer
// be used (it crashed, or answered nonsense).
type memberConn interface {
	send(batch []network.Input) (wait func() ([]network.Output, error))
	close()
}

// errMemberFailed marks a member worker that cannot be used any more.
var errMemberFailed = errors.New("the member's worker failed")

// remoteMember is an ensemble member that scores in a worker of its own (a
// scorer.Starter, which scorer.Mean starts before scoring the others).
// From the first failure of the worker on, it scores with local, the same
// model in this thread, so that no parse is lost; a batch the worker
// refuses (a word id outside the vocabulary) gets local's answer too,
// which is then the caller's error as for any model.
type remoteMember struct {
	local  scorer.Scorer
	memory int64 // the worker's, once loaded (memberLoaded)

	mu     sync.Mutex
	conn   memberConn
	failed error // the worker's failure; nil while it is used
}

var (
	_ scorer.Starter        = (*remoteMember)(nil)
	_ scorer.Sized          = (*remoteMember)(nil)
	_ parser.MemoryReporter = (*remoteMember)(nil)
)

// MemoryBytes is the memory of the member's worker once loaded.
func (m *remoteMember) MemoryBytes() int64 { return m.memory }

// Start sends batch to the worker, or, once it failed, scores it here
// when waited for.
func (m *remoteMember) Start(batch []network.Input) func() ([]scorer.Result, error) {
	m.mu.Lock()
	conn := m.conn
	if m.failed != nil {
		conn = nil
	}
	m.mu.Unlock()
	if conn == nil {
		return func() ([]scorer.Result, error) { return m.local.Score(batch) }
	}
	wait := conn.send(batch)
	return func() ([]scorer.Result, error) {
		outs, err := wait()
		if err == nil {
			return outs, nil
		}
		if errors.Is(err, errMemberFailed) {
			m.mu.Lock()
			if m.failed == nil {
				m.failed = err
				m.conn.close()
			}
			m.mu.Unlock()
		}
		return m.local.Score(batch)
	}
}

// InferenceBytes implements scorer.Sized: the model's own bound, since it
// scores here once its worker fails (the worker's memory is its own while
// it works).
func (m *remoteMember) InferenceBytes(n int, out int64) int64 {
	return max(out, scorer.InferenceBytes(m.local, n, out))
}

// Score scores batch (in the worker while it works).
func (m *remoteMember) Score(batch []network.Input) ([]scorer.Result, error) {
	return m.Start(batch)()
}

// Backend is the CPU's (the worker runs the same CPU code), saying so
// once the worker failed and the model scores here.
func (m *remoteMember) Backend() string {
	if err := m.Failed(); err != nil {
		return fmt.Sprintf("%s (here: %v)", m.local.Backend(), err)
	}
	return m.local.Backend()
}

// Failed returns the worker's failure, nil while it scores.
func (m *remoteMember) Failed() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.failed
}

// Close terminates the worker.
func (m *remoteMember) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failed == nil {
		m.failed = errors.New("closed")
		m.conn.close()
	}
	return m.local.Close()
}

// memberServer is a member worker's side: the one model it was given.
type memberServer struct {
	s scorer.Scorer
}

// handle answers a "member-load" or "score" request: the JSON answer and,
// for a score, the scores' bytes.
func (m *memberServer) handle(op string, payload, data []byte) ([]byte, []byte, error) {
	switch op {
	case "member-load":
		var r memberLoad
		if err := json.Unmarshal(payload, &r); err != nil {
			return nil, nil, fmt.Errorf("member-load request: %w", err)
		}
		// Only this model's parameters are converted: the worker's memory
		// holds one model, not the ensemble.
		model, err := parser.ReadMember(data, r.Name, r.Member)
		if err != nil {
			return nil, nil, err
		}
		model.WarmUp()
		m.s = scorer.NewCPU(model)
		j, err := json.Marshal(memberLoaded{Memory: memoryBytes()})
		return j, nil, err
	case "score":
		if m.s == nil {
			return nil, nil, parser.ErrNoModel
		}
		var batch []network.Input
		if err := json.Unmarshal(payload, &batch); err != nil {
			return nil, nil, fmt.Errorf("score request: %w", err)
		}
		outs, err := m.s.Score(batch)
		if err != nil {
			return nil, nil, err
		}
		a, b := packResults(outs)
		j, err := json.Marshal(a)
		return j, b, err
	}
	return nil, nil, fmt.Errorf("unknown request %q", op)
}
