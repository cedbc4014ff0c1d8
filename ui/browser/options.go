package browser

import (
	"net/url"
	"strconv"

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
// the parsing worker; 2 or more: each in a worker of its own, whatever the
// cores; by default each in a worker of its own where the browser reports
// a core for each model). Unknown or malformed parameters are ignored.
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
	if n, err := strconv.Atoi(q.Get("workers")); err == nil && n >= 1 && n <= 64 {
		o.App.Workers = n
	}
	return o
}
