package browser

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/ui/app"
)

// The messages between the page and the worker are JS objects
//
//	page → worker: {id, op: "load"|"parse", json, bytes?}
//	worker → page: {id, json} or {id, err, kind}; {id, progress} while a
//	               load runs (a step of parser.Engine.Load); and once
//	               {op: "ready"}
//
// where json is a JSON string: loadRequest for "load" (the weights file in
// bytes, a Uint8Array), parser.Request for "parse"; the answers are parser.Info
// and parser.Parse. kind classifies errors (errKind).

// loadRequest is the JSON of a "load" message.
type loadRequest struct {
	Name string             `json:"name"`
	Opt  parser.LoadOptions `json:"opt"`
}

// Error kinds, so that errors.Is works across the worker boundary.
const (
	kindTooLong = "too_long"
	kindNoModel = "no_model"
)

// errKind classifies err for the page.
func errKind(err error) string {
	switch {
	case errors.Is(err, decode.ErrTooLong):
		return kindTooLong
	case errors.Is(err, parser.ErrNoModel):
		return kindNoModel
	}
	return ""
}

// workerError rebuilds a worker's error from its message and kind.
func workerError(msg, kind string) error {
	switch kind {
	case kindTooLong:
		return fmt.Errorf("%s: %w", msg, decode.ErrTooLong)
	case kindNoModel:
		return parser.ErrNoModel
	}
	return errors.New(msg)
}

// handle runs one request on eng and returns the JSON answer; progress,
// when not nil, is told the steps of a load.
func handle(eng app.Engine, op string, payload []byte, data []byte, progress func(step string)) ([]byte, error) {
	switch op {
	case "load":
		var r loadRequest
		if err := json.Unmarshal(payload, &r); err != nil {
			return nil, err
		}
		r.Opt.Progress = progress
		info, err := eng.Load(bg, data, r.Name, r.Opt)
		if err != nil {
			return nil, err
		}
		info.Memory = memoryBytes()
		return json.Marshal(info)
	case "parse":
		var r parser.Request
		if err := json.Unmarshal(payload, &r); err != nil {
			return nil, err
		}
		p, err := eng.Parse(bg, r)
		if err != nil {
			return nil, err
		}
		return json.Marshal(p)
	}
	return nil, fmt.Errorf("unknown request %q", op)
}
