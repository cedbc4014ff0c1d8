package browser

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/ui/app/apptest"
)

// TestHandle runs the worker's side of the protocol on the host: a load,
// a parse whose JSON answer decodes to the parse the engine gives, and the
// errors that must keep their kind across the boundary.
func TestHandle(t *testing.T) {
	eng := &parser.Engine{}
	if _, err := handle(eng, "parse", []byte(`{"words":["x"],"variant":"n3"}`), nil, nil); !errors.Is(workerError(err.Error(), errKind(err)), parser.ErrNoModel) {
		t.Errorf("parse before load: %v", err)
	}
	load, _ := json.Marshal(loadRequest{Name: "m", Opt: parser.LoadOptions{Backend: parser.BackendCPU, MaxBytes: 1 << 20}})
	out, err := handle(eng, "load", load, apptest.Model(t, 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	var info parser.Info
	if err := json.Unmarshal(out, &info); err != nil || info.Backend != "cpu" || len(info.Labels) == 0 {
		t.Fatalf("info %+v, %v", info, err)
	}
	words := apptest.Sentences[0]
	req, _ := json.Marshal(parser.Request{Words: words, Variant: "n4"})
	out, err = handle(eng, "parse", req, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got parser.Parse
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	want, err := eng.Parse(bg, parser.Request{Words: words, Variant: "n4"})
	if err != nil {
		t.Fatal(err)
	}
	gb, _ := json.Marshal(got.Tree)
	wb, _ := json.Marshal(want.Tree)
	if string(gb) != string(wb) || len(got.Items) != len(want.Items) || got.Score != want.Score {
		t.Errorf("round trip changed the parse:\n got %s\nwant %s", gb, wb)
	}

	// A chart over the 1 MiB budget.
	long := strings.Fields(strings.Repeat("het boek ", 40))
	req, _ = json.Marshal(parser.Request{Words: long, Variant: "n6"})
	_, err = handle(eng, "parse", req, nil, nil)
	if err == nil || !errors.Is(workerError(err.Error(), errKind(err)), decode.ErrTooLong) {
		t.Errorf("too long: %v", err)
	}
	if _, err := handle(eng, "fly", nil, nil, nil); err == nil {
		t.Error("unknown op accepted")
	}
}

// A load in the worker reports its steps (sent to the page as progress
// messages): reading the weights, and choosing the backend when WebGPU is
// a candidate.
func TestHandleProgress(t *testing.T) {
	tests := []struct {
		name, backend string
		gpu           parser.GPUFunc
		want          []string
	}{
		{"cpu", parser.BackendCPU, nil, []string{parser.LoadReading}},
		{"auto without WebGPU", parser.BackendAuto, nil, []string{parser.LoadReading}},
		{"auto with WebGPU", parser.BackendAuto, func(func() ([]*network.Params, error), bool, bool) (scorer.Scorer, bool, error) {
			return nil, false, errors.New("no adapter")
		}, []string{parser.LoadReading, parser.LoadBackend}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var steps []string
			load, _ := json.Marshal(loadRequest{Name: "m", Opt: parser.LoadOptions{Backend: tc.backend}})
			if _, err := handle(&parser.Engine{GPU: tc.gpu}, "load", load, apptest.Model(t, 1), func(s string) { steps = append(steps, s) }); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(steps, tc.want) {
				t.Errorf("steps %q, want %q", steps, tc.want)
			}
		})
	}
}
