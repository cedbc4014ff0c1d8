package cli

import (
	"strings"
	"testing"
	"time"
)

// TestLineProgress checks the lines a Progress prints to a log: none before
// the interval has passed, then one an interval at most, with the steps,
// the elapsed time and the time left estimated from the steps done since
// the first report. The clock starts at creation (time 0).
func TestLineProgress(t *testing.T) {
	type set struct {
		at   time.Duration // since the start
		done int
	}
	cases := []struct {
		name  string
		total int
		sets  []set
		want  []string
	}{
		{"short work prints nothing", 100, []set{{0, 0}, {10 * time.Second, 50}, {59 * time.Second, 100}}, nil},
		{"a line a minute", 100, []set{{0, 0}, {30 * time.Second, 10}, {60 * time.Second, 20}, {90 * time.Second, 30}, {120 * time.Second, 40}},
			[]string{"job: 20/100 (20%), 1m0s, about 4m0s left", "job: 40/100 (40%), 2m0s, about 3m0s left"}},
		{"a resumed run estimates from where it started", 100, []set{{0, 50}, {60 * time.Second, 60}},
			[]string{"job: 60/100 (60%), 1m0s, about 4m0s left"}},
		{"first report after the first chunk", 100, []set{{20 * time.Second, 10}, {80 * time.Second, 40}},
			[]string{"job: 40/100 (40%), 1m20s, about 2m0s left"}},
		{"no step done, no estimate", 10, []set{{0, 3}, {2 * time.Minute, 3}},
			[]string{"job: 3/10 (30%), 2m0s"}},
		{"no total", 0, []set{{0, 0}, {time.Minute, 5}},
			[]string{"job: 5/0, 1m0s"}},
		{"an unknown total (a pipe)", -1, []set{{0, 0}, {time.Minute, 5}, {2 * time.Minute, 9}},
			[]string{"job: 5, 1m0s", "job: 9, 2m0s"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out strings.Builder
			base := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
			now := base
			l := newLineProgress(&out, c.total, "job", time.Minute, func() time.Time { return now })
			for _, s := range c.sets {
				now = base.Add(s.at)
				l.set(s.done)
			}
			var got []string
			if out.Len() > 0 {
				got = strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("lines\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}

// TestProgressDescribe checks that a new description reaches the lines.
func TestProgressDescribe(t *testing.T) {
	var out strings.Builder
	now := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	p := &Progress{lines: newLineProgress(&out, 4, "epoch 1/9", time.Minute, func() time.Time { return now })}
	p.Set(0)
	p.Describe("epoch 1/9 loss 0.52 1850 tok/s")
	now = now.Add(time.Minute)
	p.Set(2)
	if want := "epoch 1/9 loss 0.52 1850 tok/s: 2/4 (50%), 1m0s, about 1m0s left\n"; out.String() != want {
		t.Errorf("line %q, want %q", out.String(), want)
	}
	var zero Progress // prints nothing, panics on nothing
	zero.Set(1)
	zero.Describe("x")
	zero.Finish()
}
