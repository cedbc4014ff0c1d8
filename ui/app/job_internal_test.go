package app

import (
	"testing"
	"time"
)

func TestRenderDelay(t *testing.T) {
	start := time.Date(2026, 11, 27, 5, 0, 0, 0, time.UTC)
	job := &Job{start: start}
	for _, tc := range []struct {
		name string
		job  *Job
		now  time.Time
		want time.Duration
	}{
		{"no job", nil, start, 0},
		{"a job just started", job, start, JobBarDelay},
		{"a job 20 ms old", job, start.Add(20 * time.Millisecond), JobBarDelay - 20*time.Millisecond},
		{"a job as old as the delay", job, start.Add(JobBarDelay), 0},
		{"an older job", job, start.Add(time.Second), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &App{Job: tc.job}
			if got := a.RenderDelay(tc.now); got != tc.want {
				t.Errorf("RenderDelay = %v, want %v", got, tc.want)
			}
		})
	}
}
