package components

import (
	"fmt"

	"github.com/discspan/discspan/ui/app"
)

// JobBar shows the work in progress with a cancel button.
type JobBar struct {
	App *app.App
}

// text describes the job and its elapsed time.
func (c *JobBar) text() string {
	j := c.App.Job
	s := fmt.Sprintf("%s… %.1f s", j.What, j.Elapsed.Seconds())
	if j.Total > 0 {
		s += fmt.Sprintf(" (%d of %d)", j.Done, j.Total)
	}
	return s
}

// percent is the progress bar's value.
func (c *JobBar) percent() string { return fmt.Sprint(c.App.Job.Percent()) }
