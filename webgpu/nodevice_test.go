//go:build !js && !(cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64))))

package webgpu

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
)

// TestWhyNotBuilt: the reason names cgo where wgpu-native has a library,
// the platform elsewhere.
func TestWhyNotBuilt(t *testing.T) {
	for _, c := range []struct{ goos, goarch, want string }{
		{"linux", "amd64", "CGO_ENABLED=0"},
		{"darwin", "arm64", "CGO_ENABLED=0"},
		{"windows", "amd64", "CGO_ENABLED=0"},
		{"linux", "arm64", "CGO_ENABLED=0"},
		{"linux", "386", "no library for linux/386"},
		{"freebsd", "amd64", "no library for freebsd/amd64"},
	} {
		if got := whyNotBuilt(c.goos, c.goarch); !strings.Contains(got, c.want) {
			t.Errorf("%s/%s: %q; want it to say %q", c.goos, c.goarch, got, c.want)
		}
	}
}

// TestNoNativeWebGPU: in a build without wgpu-native every way to a device
// fails with an error that scorer.Select and the CLI take for "use the
// CPU" (ErrNoAdapter, scorer.ErrUnavailable) and that says why, and
// scorer.Select then scores on the CPU.
func TestNoNativeWebGPU(t *testing.T) {
	m, err := network.New(network.Tiny(), 1)
	if err != nil {
		t.Fatal(err)
	}
	p := m.Params
	_, probeErr := ProbeAdapter(Options{})
	_, newErr := New(p, Options{})
	_, ensErr := NewEnsemble([]*network.Params{p, p}, Options{})
	_, _, meanErr := NewMean([]*network.Params{p}, Options{})
	_, scoreErr := (&Scorer{}).Start(nil)()
	for _, c := range []struct {
		name string
		err  error
	}{{"ProbeAdapter", probeErr}, {"New", newErr}, {"NewEnsemble", ensErr}, {"NewMean", meanErr}, {"Score", scoreErr}} {
		if !errors.Is(c.err, ErrNoAdapter) || !errors.Is(c.err, scorer.ErrUnavailable) {
			t.Errorf("%s: %v; want an error matching ErrNoAdapter and scorer.ErrUnavailable", c.name, c.err)
			continue
		}
		if want := whyNotBuilt(runtime.GOOS, runtime.GOARCH); !strings.Contains(c.err.Error(), want) {
			t.Errorf("%s: %q does not say %q", c.name, c.err, want)
		}
	}
	var logged []string
	logf := func(format string, args ...any) { logged = append(logged, fmt.Sprintf(format, args...)) }
	got := scorer.Select(true, m, func() (scorer.Scorer, error) { return New(p, Options{}) }, logf)
	if got.Backend() != "cpu" || len(logged) != 1 || !strings.Contains(logged[0], "no native WebGPU") {
		t.Errorf("scorer.Select: %s, logged %q; want the CPU scorer and the reason logged once", got.Backend(), logged)
	}
}
