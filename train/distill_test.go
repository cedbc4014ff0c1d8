package train

import (
	"context"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSoftCells(t *testing.T) {
	// Two words, two labels: cells (0,0), (0,1), (1,1) per kind.
	n, L := 2, 2
	cont := make([]float32, n*n*L)
	disc := make([]float32, n*n*L)
	gap := make([]float32, n*n*L)
	for i := range cont { // every label far below null: dropped
		cont[i], disc[i], gap[i] = -20, -20, -20
	}
	cont[(0*n+1)*L+1] = 2  // cont (0,1): label 1 likely
	gap[(1*n+1)*L+0] = -5  // gap (1,1): label 0 at about 0.7%: kept
	disc[(0*n+0)*L+0] = -6 // disc (0,0): about 0.25%: dropped
	cont[(1*n+0)*L+0] = 9  // x > y: never read
	got := softCells(n, L, [3][]float32{cont, disc, gap})
	if len(got) != 2 {
		t.Fatalf("%d cells kept, want 2: %+v", len(got), got)
	}
	want := []struct {
		kind uint8
		cell int32
		top  int
	}{{0, 1, 1}, {2, 3, 0}}
	for i, w := range want {
		c := got[i]
		if c.kind != w.kind || c.cell != w.cell {
			t.Errorf("cell %d: kind %d cell %d, want kind %d cell %d", i, c.kind, c.cell, w.kind, w.cell)
		}
		if slices.Index(c.probs, slices.Max(c.probs)) != w.top {
			t.Errorf("cell %d: probabilities %v, want label %d on top", i, c.probs, w.top)
		}
	}
	// cont (0,1): softmax of (0 null, -20, 2).
	z := 1 + math.Exp(-20) + math.Exp(2)
	if p := float64(got[0].probs[1]); math.Abs(p-math.Exp(2)/z) > 1e-6 {
		t.Errorf("cont (0,1) label 1: probability %g, want %g", p, math.Exp(2)/z)
	}
}

// TestDistillResume: a run with a teacher trains differently from one
// without, records its teacher, resumes bit for bit, and refuses to resume
// with another teacher or weight.
func TestDistillResume(t *testing.T) {
	base := t.TempDir()
	data := shortSentences(t, base, 30, 12)
	run := func(name string, teacher string, stopAfter int) Options {
		o := resumeOptions(t, data, base)
		o.Out = filepath.Join(base, name+".safetensors")
		o.Teacher = teacher
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		if stopAfter > 0 {
			o.Progress = func(p Progress) {
				if p.Phase == PhaseEpoch && p.Epoch == stopAfter {
					cancel()
				}
			}
		}
		if _, err := Run(ctx, o); err != nil {
			t.Fatal(err)
		}
		if stopAfter > 0 {
			o.Progress, o.Resume, o.Teacher = nil, true, "" // the checkpoint names the teacher
			if _, err := Run(context.Background(), o); err != nil {
				t.Fatal(err)
			}
		}
		return o
	}
	plain := run("plain", "", 0)
	a := run("a", plain.Out, 0)
	b := run("b", plain.Out, 1)
	equalRuns(t, a.Out+".ckpt", b.Out+".ckpt")
	ca, err := readCheckpoint(a.Out + ".ckpt")
	if err != nil {
		t.Fatal(err)
	}
	cp, err := readCheckpoint(plain.Out + ".ckpt")
	if err != nil {
		t.Fatal(err)
	}
	if s := ca.Settings; s.Teacher != plain.Out || s.TeacherWeight != DefaultTeacherWeight || len(s.TeacherSHA256) != 64 {
		t.Errorf("checkpoint settings: teacher %q weight %g hash %q", s.Teacher, s.TeacherWeight, s.TeacherSHA256)
	}
	if slices.EqualFunc(ca.Params, cp.Params, func(x, y rawTensor) bool { return string(x.Data) == string(y.Data) }) {
		t.Error("the teacher did not change training")
	}
	cases := []struct {
		name   string
		change func(o *Options)
		want   string
	}{
		{"another teacher", func(o *Options) { o.Teacher = a.Out }, "is not the teacher of checkpoint"},
		{"another weight", func(o *Options) { o.TeacherWeight = 0.9 }, "teacher weight 0.9 (checkpoint: 0.5)"},
		{"a teacher for a run without one", func(o *Options) { o.Out, o.Teacher = plain.Out, a.Out }, "a teacher (checkpoint: none)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := b
			o.Epochs = 3
			tc.change(&o)
			_, err := Run(context.Background(), o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestTeacherRefused(t *testing.T) {
	base := t.TempDir()
	other := filepath.Join(base, "other")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	data := shortSentences(t, base, 30, 12)
	o := resumeOptions(t, shortSentences(t, other, 12, 8), other)
	o.Epochs = 1
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		teacher string
		weight  float64
		want    string
		is      error
	}{
		{"other vocabulary", o.Out, 0, "was trained with another vocabulary than", nil},
		{"missing file", filepath.Join(base, "none.safetensors"), 0, "teacher", fs.ErrNotExist},
		{"weight above 1", o.Out, 1.5, "teacher weight 1.5", nil},
		{"weight without teacher", "", 0.3, "a teacher weight without a teacher", nil},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ro := resumeOptions(t, data, base)
			ro.Out = filepath.Join(base, "run"+string(rune('a'+i))+".safetensors")
			ro.Teacher, ro.TeacherWeight = tc.teacher, tc.weight
			_, err := Run(context.Background(), ro)
			if err == nil || !strings.Contains(err.Error(), tc.want) || (tc.is != nil && !errors.Is(err, tc.is)) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
