package components

import (
	"fmt"
	"time"

	"github.com/discspan/discspan/ui/app"
)

// Loader shows the model load: progress, errors with a retry button, or
// why there is no model.
type Loader struct {
	App *app.App
}

// status describes the phase.
func (c *Loader) status() string {
	m := &c.App.Model
	switch m.Phase {
	case app.PhaseStarting, app.PhaseListing:
		return "getting the model list…" + elapsed(m.Elapsed)
	case app.PhaseDownloading:
		total := "?"
		if m.Total > 0 {
			total = app.Bytes(m.Total)
		}
		return fmt.Sprintf("downloading the weights of %s: %s of %s (once: the browser keeps them)", m.Current.Name, app.Bytes(m.Done), total)
	case app.PhaseVerifying:
		return "checking the weights against their SHA-256…" + elapsed(m.Elapsed)
	case app.PhaseLoading:
		return "starting the model: " + m.Step + "…" + elapsed(m.Elapsed)
	}
	return ""
}

// elapsed writes the time a step has taken, once it is over a second.
func elapsed(d time.Duration) string {
	if d < time.Second {
		return ""
	}
	return fmt.Sprintf(" (%d s)", int(d.Seconds()))
}

// class is the section's class: while the model loads, the status floats
// over the page ("floating") instead of taking a place in it, so that the
// page does not move up when the model is ready (a click just then could
// land beside its button); an error keeps its place.
func (c *Loader) class() string {
	switch c.App.Model.Phase {
	case app.PhaseFailed, app.PhaseNoModel:
		return "loader"
	}
	return "loader floating"
}

// progress is the progress bar's value attribute.
func (c *Loader) progress() string { return fmt.Sprint(c.App.Model.Percent()) }
