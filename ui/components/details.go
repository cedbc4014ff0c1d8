package components

import (
	"fmt"

	"github.com/discspan/discspan/ui/app"
)

// Details shows the node (or word) under the pointer, or the selected one:
// its blocks, its words, and the derivation item that built it (rule,
// score, label weight).
type Details struct {
	App *app.App
}

// lines returns the details as name/value rows; nil when nothing is
// focused.
func (c *Details) lines() []row {
	d := c.App.Describe()
	if d == nil {
		return nil
	}
	if d.Node == nil {
		return []row{{"word", fmt.Sprintf("%d: %s", d.Index, d.Word)}, {"tag", d.Tag}, {"tree", d.View}}
	}
	n := d.Node
	kind := "continuous"
	if n.Disc {
		kind = "discontinuous (gap)"
	}
	rows := []row{
		{"node", n.Label},
		{"blocks", app.BlocksString(n.Blocks) + " " + kind},
		{"words", n.Words},
		{"tree", d.View},
	}
	if n.Class != "" {
		rows = append(rows, row{"comparison", map[string]string{"miss": "missed by the parse", "extra": "not in the other tree"}[n.Class]})
	}
	if it := n.Item; it != nil {
		rows = append(rows,
			row{"rule", it.Rule},
			row{"item score", fmt.Sprintf("%.4f", it.Score)},
			row{"label weight", fmt.Sprintf("%.4f (%s)", it.Weight, it.Label)})
	}
	return rows
}
