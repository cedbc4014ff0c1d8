package app

import (
	"context"
	"time"
)

// Job is work in progress: a parse, or a batch over a treebank.
type Job struct {
	// What describes the work ("parsing 23 words with n6").
	What string
	// Done and Total count the sentences of a batch (Total 0 for one
	// sentence).
	Done, Total int
	// Elapsed is the time since the job started, updated a few times a
	// second while it runs.
	Elapsed time.Duration

	start  time.Time
	cancel context.CancelFunc
	parse  bool // a parse of the text box's sentence (ParseNow)
	bank   bool // a parse of the treebank's sentences (parseBank)
}

// Percent is a batch's progress in percent.
func (j *Job) Percent() int {
	if j == nil || j.Total == 0 {
		return 0
	}
	return 100 * j.Done / j.Total
}

// JobBarDelay is how long the page waits, after a job starts, before it
// renders the job (its bar, the disabled buttons): a job done within it,
// as a parse of a sentence on the CPU usually is, is drawn in one render,
// and the render that would only have shown its bar does not compete with
// the scoring workers for the cores.
const JobBarDelay = 50 * time.Millisecond

// RenderDelay is how long the page's render loop should wait before its
// next render: the rest of JobBarDelay while a job is that young, else 0
// (the caller holds at least the read lock).
func (a *App) RenderDelay(now time.Time) time.Duration {
	if a.Job == nil {
		return 0
	}
	return max(JobBarDelay-now.Sub(a.Job.start), 0)
}

// startJob makes a job current and returns its context; the caller holds
// the lock. A ticker refreshes Elapsed twice a second until finishJob.
func (a *App) startJob(what string, total int) (context.Context, *Job) {
	ctx, cancel := context.WithCancel(context.Background())
	j := &Job{What: what, Total: total, start: time.Now(), cancel: cancel}
	a.Job = j
	go func() {
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				a.update(func() { j.Elapsed = time.Since(j.start) })
			}
		}
	}()
	return ctx, j
}

// finishJob ends j (the caller holds the lock).
func (a *App) finishJob(j *Job) {
	j.cancel()
	if a.Job == j {
		a.Job = nil
		a.bankJobDone()
	}
}

// Cancel stops the current job: a worker busy with it is terminated and
// started again.
func (a *App) Cancel() {
	if a.Job != nil {
		a.Job.cancel()
	}
}
