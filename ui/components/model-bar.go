package components

import (
	"fmt"
	"strings"

	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/server/api"
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

// modelOption is a model's entry in the model list: its name, then its
// dev F1 and download size where the list has them, so that the models can
// be weighed against each other (the default against the fast pair).
func (c *ModelBar) modelOption(m api.Model) string {
	var about []string
	if m.DevF1 > 0 {
		about = append(about, fmt.Sprintf("dev F1 %.2f", m.DevF1))
	}
	if m.Bytes > 0 {
		about = append(about, app.Bytes(m.Bytes))
	}
	if len(about) == 0 {
		return m.Name
	}
	return m.Name + " (" + strings.Join(about, ", ") + ")"
}

// backends lists the backends one can ask for.
func (c *ModelBar) backends() []string {
	return []string{parser.BackendAuto, parser.BackendCPU, parser.BackendWebGPU}
}
