package components

import (
	"fmt"
	"html"
	"strings"

	"github.com/discspan/discspan/ui/app"
)

// Work shows the work done: backend, model, load and parse timings. The
// table's rows are set as one piece of HTML (setHTML).
type Work struct {
	App *app.App // App.WorkClosed says whether the table is closed
}

// row is one line of the timings table.
type row struct{ Name, Value string }

// rows lists the timings of the last parse and of the load.
func (c *Work) rows() []row {
	a := c.App
	var rows []row
	add := func(name, value string) { rows = append(rows, row{name, value}) }
	add("tokenizing", app.MS(a.Parse.TokenizeNs))
	for _, v := range a.Views() {
		if v.Parse == nil {
			continue
		}
		score := app.MS(v.Parse.ScoreNs)
		if v.Parse.Reused {
			score = "scores reused"
		}
		add("scoring ("+v.Parse.Variant+")", score)
		add("scored on", app.ScoredBy(v.Parse))
		add("decoding "+v.Parse.Variant, app.MS(v.Parse.DecodeNs))
		add("drawing", app.MS(v.DrawNs))
		add("tree score", fmt.Sprintf("%.3f", v.Parse.Score))
	}
	m := &a.Model
	if m.Info != nil {
		add("backend", m.Info.Backend+"; "+m.NotUsed())
		models := ""
		if m.Info.Models > 1 {
			models = fmt.Sprintf(" in an ensemble of %d models (scores averaged)", m.Info.Models)
		}
		add("model", fmt.Sprintf("%s: %d parameters%s (%s), %s, trained on %s", m.Current.Name, m.Info.Params, models, m.Info.DType, app.Bytes(m.Current.Bytes), or(m.Info.TrainingData, "?")))
		if m.Info.DevDiscF1 > 0 {
			add("dev discontinuous F1", fmt.Sprintf("%.2f", m.Info.DevDiscF1))
		}
		if m.Info.TestF1 > 0 {
			add("test F1 (n3)", fmt.Sprintf("%.2f", m.Info.TestF1))
		}
		src := "downloaded"
		if m.FromCache {
			src = "from the browser's cache"
		}
		add("weights", fmt.Sprintf("%s in %s; model ready in %s; %.2f s after the page started", src, app.MS(m.FetchNs), app.MS(m.Info.LoadNs), m.ReadyAt.Seconds()))
		if mem := app.MemoryText(m.Info, a.PageMemory()); mem != "" {
			add("memory", mem)
		}
	}
	if m.ListFromCache {
		add("network", "offline: the model list came from the cache")
	}
	if m.Note != "" {
		add("note", m.Note)
	}
	return rows
}

// or returns s, or def when s is empty.
func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// rowsHTML is the table's content: a row per timing.
func (c *Work) rowsHTML() string {
	var b strings.Builder
	for _, r := range c.rows() {
		b.WriteString("<tr><th>")
		b.WriteString(html.EscapeString(r.Name))
		b.WriteString("</th><td>")
		b.WriteString(html.EscapeString(r.Value))
		b.WriteString("</td></tr>")
	}
	return b.String()
}
