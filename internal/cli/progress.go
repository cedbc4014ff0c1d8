// Package cli holds what the command-line tools share: progress reports
// (a bar on a terminal, a plain line now and then in a log), and one-line
// error reporting.
package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// LogEvery is how often a Progress writing to a file or pipe (a run in the
// background, its standard error sent to a log) prints a line: work shorter
// than this prints nothing.
const LogEvery = time.Minute

// Progress draws a progress bar on standard error when it is a terminal;
// otherwise it prints a plain line there every LogEvery (done of total,
// the elapsed time, an estimate of the time left). The zero value prints
// nothing.
type Progress struct {
	bar   *progressbar.ProgressBar
	lines *lineProgress
}

// NewProgress starts a report of total steps with a description; a total
// of -1 is unknown (a spinner and the steps done, on a terminal).
func NewProgress(total int, description string) *Progress {
	if !term.IsTerminal(int(os.Stderr.Fd())) {
		return &Progress{lines: newLineProgress(os.Stderr, total, description, LogEvery, time.Now)}
	}
	return &Progress{bar: progressbar.NewOptions(total,
		progressbar.OptionSetWriter(os.Stderr),
		progressbar.OptionSetDescription(description),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
	)}
}

// NewByteProgress starts a report of work measured in bytes (total of
// them: a file read), shown in MB.
func NewByteProgress(total int64, description string) *Progress {
	if !term.IsTerminal(int(os.Stderr.Fd())) {
		l := newLineProgress(os.Stderr, int(total), description, LogEvery, time.Now)
		l.bytes = true
		return &Progress{lines: l}
	}
	return &Progress{bar: progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(os.Stderr),
		progressbar.OptionSetDescription(description),
		progressbar.OptionShowBytes(true),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
	)}
}

// Set moves the report to done steps.
func (p *Progress) Set(done int) {
	if p.bar != nil {
		_ = p.bar.Set(done)
	}
	if p.lines != nil {
		p.lines.set(done)
	}
}

// Describe changes the report's description (e.g. the current loss).
func (p *Progress) Describe(s string) {
	if p.bar != nil {
		p.bar.Describe(s)
	}
	if p.lines != nil {
		p.lines.desc = s
	}
}

// lineProgress prints a line every interval while steps are done. The
// elapsed time counts from its creation; the time left is estimated from
// the steps done since the first Set and the time they took (a resumed run
// starts part way; a parse reports its first chunk once it is done).
type lineProgress struct {
	w       io.Writer
	total   int
	desc    string
	every   time.Duration
	now     func() time.Time
	created time.Time
	last    time.Time // of the last line (creation before the first)
	started bool
	bytes   bool      // steps are bytes, shown in MB
	first   int       // steps done at the first Set
	firstAt time.Time // and when
}

func newLineProgress(w io.Writer, total int, desc string, every time.Duration, now func() time.Time) *lineProgress {
	t := now()
	return &lineProgress{w: w, total: total, desc: desc, every: every, now: now, created: t, last: t}
}

func (l *lineProgress) set(done int) {
	t := l.now()
	if !l.started {
		l.started, l.first, l.firstAt = true, done, t
	}
	if t.Sub(l.last) < l.every {
		return
	}
	l.last = t
	line := fmt.Sprintf("%s: %d/%d", l.desc, done, l.total)
	if l.total < 0 {
		line = fmt.Sprintf("%s: %d", l.desc, done) // the total is unknown
	}
	if l.bytes {
		line = fmt.Sprintf("%s: %.1f/%.1f MB", l.desc, float64(done)/1e6, float64(l.total)/1e6)
	}
	if l.total > 0 {
		line += fmt.Sprintf(" (%d%%)", done*100/l.total)
	}
	line += ", " + t.Sub(l.created).Round(time.Second).String()
	if steps := done - l.first; steps > 0 && done <= l.total {
		left := time.Duration(float64(t.Sub(l.firstAt)) / float64(steps) * float64(l.total-done))
		line += ", about " + left.Round(time.Second).String() + " left"
	}
	_, _ = io.WriteString(l.w, line+"\n")
}

// Finish clears the bar.
func (p *Progress) Finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}

// OneLine folds an error message onto one line.
func OneLine(err error) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", "; ")), " ")
}

// Fprintln writes a line, ignoring errors (for help text).
func Fprintln(w io.Writer, s string) { _, _ = io.WriteString(w, s+"\n") }
