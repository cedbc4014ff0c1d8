package components

import (
	"fmt"

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
		return "getting the model list…"
	case app.PhaseDownloading:
		total := "?"
		if m.Total > 0 {
			total = app.Bytes(m.Total)
		}
		return fmt.Sprintf("downloading the weights of %s: %s of %s (once: the browser keeps them)", m.Current.Name, app.Bytes(m.Done), total)
	case app.PhaseVerifying:
		return "checking the weights against their SHA-256…"
	case app.PhaseLoading:
		return "starting the model…"
	}
	return ""
}

// progress is the progress bar's value attribute.
func (c *Loader) progress() string { return fmt.Sprint(c.App.Model.Percent()) }
