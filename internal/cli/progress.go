// Package cli holds what the command-line tools share: progress bars that
// only draw on a terminal, and one-line error reporting.
package cli

import (
	"io"
	"os"
	"strings"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Progress draws a progress bar on standard error when it is a terminal and
// prints nothing otherwise. The zero value draws nothing.
type Progress struct {
	bar *progressbar.ProgressBar
}

// NewProgress starts a bar of total steps with a description.
func NewProgress(total int, description string) *Progress {
	if !term.IsTerminal(int(os.Stderr.Fd())) {
		return &Progress{}
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

// Set moves the bar to done steps.
func (p *Progress) Set(done int) {
	if p.bar != nil {
		_ = p.bar.Set(done)
	}
}

// Describe changes the bar's description (e.g. the current loss).
func (p *Progress) Describe(s string) {
	if p.bar != nil {
		p.bar.Describe(s)
	}
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
