package components

import (
	"fmt"

	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/ui/app"
)

// ModelBar names the model, its dev F1 and the backend, with a choice of
// model and backend.
type ModelBar struct {
	App *app.App
}

// devF1 is the model's dev F1 as text.
func (c *ModelBar) devF1() string {
	m := c.App.Model.Current
	if i := c.App.Model.Info; i != nil && i.DevF1 > 0 {
		return fmt.Sprintf("%.2f", i.DevF1)
	}
	if m.DevF1 > 0 {
		return fmt.Sprintf("%.2f", m.DevF1)
	}
	return "not recorded"
}

// backends lists the backends one can ask for.
func (c *ModelBar) backends() []string {
	return []string{parser.BackendAuto, parser.BackendCPU, parser.BackendWebGPU}
}
