// Package scorer is the one Go API of the network's backends: a Scorer
// turns a batch of encoded sentences into span scores (chart/decode.Scores)
// and tag logits, on the CPU (NewCPU, the network package's reference
// forward pass) or on a GPU (package webgpu implements Scorer). Select
// picks the GPU when asked and available and otherwise, or when the GPU
// fails later, the CPU, saying why.
//
// Backends report failures that make them unusable (no adapter, a shader
// that does not compile, a lost device) with errors matching
// ErrUnavailable, and sentences longer than they accept with errors
// matching ErrTooLong; other errors (an id outside the vocabulary) are the
// caller's.
package scorer

import (
	"errors"

	"github.com/discspan/discspan/network"
)

// Result is the output of one sentence of n words: Scores holds the cont,
// disc and gap scores in the decoder's layout ((x*n + y)*Labels + a, 0 for
// x > y) and Tags the (n, Tags) POS tag logits (nil when n = 0). It is
// network.Output, so results of every backend can be compared with, and fed
// wherever, the CPU reference's outputs go.
type Result = network.Output

// Scorer scores batches of sentences. Implementations may serialise
// concurrent calls.
type Scorer interface {
	// Score returns one Result per sentence of batch, in order.
	Score(batch []network.Input) ([]Result, error)
	// Backend describes the backend ("cpu", "webgpu: <adapter> ...").
	Backend() string
	// Close releases the backend's resources; Score must not be called
	// afterwards.
	Close() error
}

// Starter is a Scorer that can score elsewhere while the caller goes on (a
// model in a Web Worker of its own): Start sends batch off and returns a
// function that waits for its results, which are then what Score would
// have returned. Mean starts such members before it scores the others, so
// that an ensemble scores in parallel.
type Starter interface {
	Scorer
	Start(batch []network.Input) (wait func() ([]Result, error))
}

var (
	// ErrUnavailable marks failures after which a backend cannot be used:
	// no adapter, a shader that does not compile, a lost device.
	ErrUnavailable = errors.New("backend unavailable")
	// ErrTooLong marks a sentence longer than a backend accepts.
	ErrTooLong = errors.New("sentence too long for the backend")
)

// Background runs score in a goroutine of its own and returns the wait
// for its results: the body of a Starter's Start for a backend that can
// score while its caller goes on (a GPU on a device of its own).
func Background(score func() ([]Result, error)) (wait func() ([]Result, error)) {
	type answer struct {
		out []Result
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		out, err := score()
		ch <- answer{out, err}
	}()
	return func() ([]Result, error) {
		a := <-ch
		return a.out, a.err
	}
}
