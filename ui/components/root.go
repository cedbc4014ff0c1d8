package components

import (
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
