package app_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// fakeGPU is a "GPU" scorer: the CPU reference, slowed down by delay.
type fakeGPU struct {
	cpu   scorer.Scorer
	delay time.Duration
}

func (g fakeGPU) Score(b []network.Input) ([]scorer.Result, error) {
	time.Sleep(g.delay)
	return g.cpu.Score(b)
}
func (fakeGPU) Backend() string { return "webgpu: fake" }
func (fakeGPU) Close() error    { return nil }

func TestChooseBackend(t *testing.T) {
	data := apptest.Model(t, 1)
	gpu := func(software bool, delay time.Duration) app.GPUFunc {
		return func(p *network.Params, f16, allowSoftware bool) (scorer.Scorer, bool, error) {
			if software && !allowSoftware {
				return nil, true, fmt.Errorf("probe: %w", app.ErrSoftwareAdapter)
			}
			m := &network.Model{Params: p}
			return fakeGPU{scorer.NewCPU(m), delay}, software, nil
		}
	}
	for _, tc := range []struct {
		name, backend string
		gpu           app.GPUFunc
		wantBackend   string
		wantChoice    string
		wantSoftware  bool
	}{
		{"no gpu", "auto", nil, "cpu", "no WebGPU here", false},
		{"cpu asked", "cpu", gpu(false, 0), "cpu", "CPU asked for", false},
		{"software skipped", "auto", gpu(true, 0), "cpu", "software one", false},
		{"software forced", "webgpu", gpu(true, 0), "webgpu: fake", "WebGPU asked for", true},
		{"slow hardware", "auto", gpu(false, 30*time.Millisecond), "cpu", "CPU", false},
		{"broken", "auto", func(*network.Params, bool, bool) (scorer.Scorer, bool, error) {
			return nil, false, errors.New("no adapter\ndetails")
		}, "cpu", "WebGPU unavailable: no adapter", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &app.Local{GPU: tc.gpu}
			info, err := l.Load(context.Background(), data, "m", app.LoadOptions{Backend: tc.backend})
			if err != nil {
				t.Fatal(err)
			}
			if info.Backend != tc.wantBackend || !strings.Contains(info.Choice, tc.wantChoice) || info.Software != tc.wantSoftware {
				t.Errorf("got %q (%q, software %v), want %q (%q)", info.Backend, info.Choice, info.Software, tc.wantBackend, tc.wantChoice)
			}
			if _, err := l.Parse(context.Background(), app.Request{Words: apptest.Sentences[0], Variant: "n3"}); err != nil {
				t.Error(err)
			}
		})
	}
	if _, err := (&app.Local{}).Load(context.Background(), data, "m", app.LoadOptions{Backend: "cuda"}); err == nil {
		t.Error("unknown backend accepted")
	}
}
