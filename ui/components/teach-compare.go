package components

import (
	"fmt"
	"strings"

	"github.com/discspan/discspan/ui/app"
	"github.com/vugu/vugu"
	"github.com/vugu/vugu/js"
)

// TeachCompare shows the tree of the comparison (a gallery example or a
// shared tree) and, side by side, what the continuous, n3 (= n4), n5wn and
// n6 systems build of it; its link button puts the tree into the page
// URL's fragment.
type TeachCompare struct {
	App *app.App
	// url is the shared link last made.
	url string
}

// words are the shown tree's words, for tests.
func (c *TeachCompare) words() string { return strings.Join(c.App.Teach.Shown.Tree.Words(), " ") }

// share puts the shown tree's link into the address bar (without
// reloading or adding a history entry) and into the link box.
func (c *TeachCompare) share() {
	frag := c.App.TeachShare()
	if frag == "" {
		return
	}
	loc := js.Global().Get("location")
	c.url = loc.Get("origin").String() + loc.Get("pathname").String() + loc.Get("search").String() + frag
	js.Global().Get("history").Call("replaceState", nil, "", frag)
}

// selectAll selects the link box's text for copying.
func (c *TeachCompare) selectAll(event vugu.DOMEvent) { event.JSEventTarget().Call("select") }

// buildClass marks complete builds.
func (c *TeachCompare) buildClass(b app.VariantBuild) string {
	if b.Complete {
		return "build complete"
	}
	return "build"
}

// verdict sums up a variant's build.
func (c *TeachCompare) verdict(b app.VariantBuild) string {
	if b.Complete {
		return "builds the whole tree"
	}
	return fmt.Sprintf("builds %d of %s", len(b.Found), app.Count(len(b.Found)+len(b.Missing), "constituent"))
}
