package app

import (
	"context"

	"github.com/discspan/discspan/parser"
)

// Engine parses sentences with a loaded model: a parser.Engine in the page
// itself, or one in a Web Worker (ui/browser's WorkerEngine). Its values
// cross the worker boundary as JSON.
type Engine interface {
	// Load reads a weights file (its bytes) and prepares the backend.
	Load(ctx context.Context, data []byte, name string, opt parser.LoadOptions) (*parser.Info, error)
	// Parse parses one sentence (see parser.Parser.Parse). Errors for a
	// sentence whose chart exceeds the memory budget wrap
	// decode.ErrTooLong; a cancelled ctx stops the work (a worker is
	// terminated and restarted) and returns ctx.Err().
	Parse(ctx context.Context, req parser.Request) (*parser.Parse, error)
	// Close releases the engine.
	Close()
}
