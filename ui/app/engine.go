package app

import (
	"context"
	"errors"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
)

// Engine parses sentences with a loaded model: in the page itself (Local)
// or in a Web Worker (ui/browser). Its values cross the worker boundary as
// JSON.
type Engine interface {
	// Load reads a weights file (its bytes) and prepares the backend.
	Load(ctx context.Context, data []byte, name string, opt LoadOptions) (*Info, error)
	// Parse parses one sentence. Errors for a sentence whose chart exceeds
	// the memory budget wrap decode.ErrTooLong; a cancelled ctx stops the
	// work (a worker is terminated and restarted) and returns ctx.Err().
	Parse(ctx context.Context, req Request) (*Parse, error)
	// Close releases the engine.
	Close()
}

// Backends the user can ask for.
const (
	BackendAuto   = "auto"   // WebGPU when a hardware adapter is faster, else CPU
	BackendCPU    = "cpu"    // the network's CPU reference, in wasm
	BackendWebGPU = "webgpu" // WebGPU whatever the adapter (a software one too)
)

// LoadOptions tune Engine.Load.
type LoadOptions struct {
	// Backend is BackendAuto, BackendCPU or BackendWebGPU ("" is auto).
	Backend string `json:"backend"`
	// MaxBytes is the decoders' chart memory budget (0: DefaultMaxBytes).
	MaxBytes int64 `json:"max_bytes"`
}

// DefaultMaxBytes is the chart memory budget in the browser: 256 MiB, well
// within a tab's memory, beyond what n3 needs for 200 words and n6 for 80.
const DefaultMaxBytes = 256 << 20

// Info describes a loaded model and the backend that scores with it.
type Info struct {
	// Backend says what scores ("cpu" or the WebGPU adapter and weight
	// storage); Choice why it was chosen (fallbacks and their reasons,
	// measured times).
	Backend string `json:"backend"`
	Choice  string `json:"choice"`
	// GPU is set when WebGPU scores, Software when its adapter is a
	// software one.
	GPU      bool `json:"gpu"`
	Software bool `json:"software"`

	Labels []string `json:"labels"`
	// Params is the number of parameters (of every model of an ensemble),
	// Models the number of models whose scores are averaged (1 for a single
	// model), DType how they were stored.
	Params int    `json:"params"`
	Models int    `json:"models"`
	DType  string `json:"dtype"`
	// From the file's metadata.
	DevF1        float64 `json:"dev_f1"`
	DevDiscF1    float64 `json:"dev_disc_f1"`
	TrainingData string  `json:"training_data"`
	Created      string  `json:"created"`
	// LoadNs is the time Load took (reading, checking, backend set-up).
	LoadNs int64 `json:"load_ns"`
}

// Request asks for one sentence to be parsed.
type Request struct {
	Words   []string `json:"words"`
	Variant string   `json:"variant"`
	// Scores asks for the network's scores in Parse.Scores (the teaching
	// tab's stepper replays them).
	Scores bool `json:"scores,omitempty"`
	// Require and Forbid constrain the parse (the annotation tab's
	// re-parse around fixed constituents, see Constraint): it is decoded
	// exactly with decode.DecodeConstrained, reusing the scores of the
	// sentence parsed just before when it is the same.
	Require []Constraint `json:"require,omitempty"`
	Forbid  []Constraint `json:"forbid,omitempty"`
}

// Parse is one parsed sentence.
type Parse struct {
	Variant string   `json:"variant"`
	Words   []string `json:"words"`
	Tags    []string `json:"tags"`
	// Tree has the predicted tags, unary chains split.
	Tree *tree.Tree `json:"tree"`
	// Items is the decoder's derivation (labels index Info.Labels, -1 for
	// null items; chains merged), Score the tree's score.
	Items []decode.Item `json:"items"`
	Score float32       `json:"score"`
	// ScoreNs and DecodeNs time the network and the decoder (with tree
	// building).
	ScoreNs  int64 `json:"score_ns"`
	DecodeNs int64 `json:"decode_ns"`
	// Reused is set when the scores of the same sentence, scored for
	// another variant just before, were used again.
	Reused bool `json:"reused"`
	// Scores are the network's span scores, when Request.Scores asked
	// for them.
	Scores *decode.Scores `json:"scores,omitempty"`
}

// ErrNoModel is returned by Parse before a model is loaded.
var ErrNoModel = errors.New("no model loaded")
