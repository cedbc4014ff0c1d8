package components

import (
	"fmt"
	"strconv"

	"github.com/discspan/discspan/ui/app"
)

// Root is the page: the model bar, the loader while the model loads, and
// the sentence, treebank and teaching tabs.
type Root struct {
	App *app.App
}

// backend is the scoring backend in use, "" before the model is loaded.
func (c *Root) backend() string {
	if i := c.App.Model.Info; i != nil {
		return i.Backend
	}
	return ""
}

// reason is why the backend in use was chosen (parser.Info.Reason), ""
// before the model is loaded.
func (c *Root) reason() string {
	if i := c.App.Model.Info; i != nil {
		return i.Reason
	}
	return ""
}

// gpu is "1" when WebGPU scores, else "0".
func (c *Root) gpu() string {
	if i := c.App.Model.Info; i != nil && i.GPU {
		return "1"
	}
	return "0"
}

// seq is the number of parses shown, for tests waiting for a new one.
func (c *Root) seq() string { return strconv.Itoa(c.App.Parse.Seq) }

// attempts is the count of parses asked for (app.ParseState.Attempts).
func (c *Root) attempts() string { return strconv.Itoa(c.App.Parse.Attempts) }

// tabClass is the class of a tab's button.
func (c *Root) tabClass(tab string) string {
	if c.App.Tab == tab {
		return "tab on"
	}
	return "tab"
}

// tabCurrent marks the tab shown for screen readers.
func (c *Root) tabCurrent(tab string) string { return currentIf(c.App.Tab == tab) }

// announce is the text of the page's live region, which screen readers
// read when it changes: the model loading, then ready, and each parse of
// the Sentence tab with its result (the last one stays, so that a tab
// switch says nothing). (Notices and errors have their own.)
func (c *Root) announce() string {
	m := &c.App.Model
	switch {
	case m.Phase == app.PhaseFailed || m.Phase == app.PhaseNoModel:
		return ""
	case !m.Ready():
		return "Loading the model."
	}
	if p := &c.App.Parse; p.Main != nil { // the last parse, whatever the tab: a tab switch is no news
		disc := 0
		for _, n := range p.Main.Nodes {
			if n.Disc {
				disc++
			}
		}
		return fmt.Sprintf("Parse %d, %s: %s, %d discontinuous.", p.Seq, p.Main.Title, app.Count(len(p.Main.Nodes), "constituent"), disc)
	}
	return "Model " + m.Current.Name + " ready."
}

// readyMS is the time from the page's start to the model being ready, in
// milliseconds ("" before).
func (c *Root) readyMS() string {
	if !c.App.Model.Ready() {
		return ""
	}
	return strconv.FormatInt(c.App.Model.ReadyAt.Milliseconds(), 10)
}

// noticeClass styles the notice: an error in the error style.
func (c *Root) noticeClass() string {
	if c.App.NoticeErr {
		return "notice error"
	}
	return "notice"
}

// noticeRole makes an error notice an alert for screen readers.
func (c *Root) noticeRole() string {
	if c.App.NoticeErr {
		return "alert"
	}
	return "status"
}
