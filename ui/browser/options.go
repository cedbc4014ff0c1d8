package browser

import (
	"net/url"

	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/ui/app"
)

// PageOptions are the settings a page URL's query gives.
type PageOptions struct {
	App app.Options
	// Worker is false with "worker=0": parse in the page itself (the tab
	// freezes during long work).
	Worker bool
}

// ParseQuery reads the query of the page URL: backend (auto, cpu,
// webgpu), model, variant, s (the sentence), worker (0 to parse in the
// page) and workers (1: an ensemble's models score one after the other in
// the parsing worker, not each in a worker of its own). Unknown or malformed parameters are ignored.
func ParseQuery(rawQuery string) PageOptions {
	q, _ := url.ParseQuery(rawQuery)
	o := PageOptions{Worker: q.Get("worker") != "0"}
	switch b := q.Get("backend"); b {
	case parser.BackendCPU, parser.BackendWebGPU, parser.BackendAuto:
		o.App.Backend = b
	}
	o.App.Model = q.Get("model")
	o.App.Variant = q.Get("variant")
	o.App.Text = q.Get("s")
	o.App.Serial = q.Get("workers") == "1"
	return o
}
