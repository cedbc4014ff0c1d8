package browser

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/ui/app/apptest"
)

// TestHandleConstrained sends a re-parse with constraints through the
// worker's protocol: the constraints survive the JSON and the answer has
// the required constituent and not the forbidden one.
func TestHandleConstrained(t *testing.T) {
	eng := &parser.Engine{}
	load, _ := json.Marshal(loadRequest{Name: "m", Opt: parser.LoadOptions{Backend: parser.BackendCPU}})
	if _, err := handle(eng, "load", load, apptest.Model(t, 1), nil); err != nil {
		t.Fatal(err)
	}
	words := apptest.Sentences[0]
	tests := []struct {
		name    string
		req     parser.Request
		want    string
		notWant string
	}{
		{"require", parser.Request{Words: words, Variant: "n3", Require: []parser.Constraint{{Label: "np", Blocks: [][2]int{{2, 4}}}}}, "np[2,4)", ""},
		{"require with a gap", parser.Request{Words: words, Variant: "n4", Require: []parser.Constraint{{Label: "pp", Blocks: [][2]int{{1, 2}, {5, 8}}}}}, "pp[1,2)+[5,8)", ""},
		{"forbid", parser.Request{Words: words, Variant: "n3", Forbid: []parser.Constraint{{Blocks: [][2]int{{0, len(words)}}}}}, "", "[0," + strconv.Itoa(len(words)) + ")"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := json.Marshal(tc.req)
			out, err := handle(eng, "parse", req, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			var p parser.Parse
			if err := json.Unmarshal(out, &p); err != nil {
				t.Fatal(err)
			}
			var cons []string
			for i, y := range p.Tree.Yields() {
				cons = append(cons, tree.Labelled{Label: p.Tree.Nodes[i].Label, Blocks: tree.Blocks(y)}.String())
			}
			all := " " + strings.Join(cons, " ") + " "
			if tc.want != "" && !strings.Contains(all, " "+tc.want+" ") {
				t.Errorf("no %s in %s", tc.want, all)
			}
			if tc.notWant != "" && strings.Contains(all, tc.notWant+" ") {
				t.Errorf("forbidden %s in %s", tc.notWant, all)
			}
		})
	}
}
