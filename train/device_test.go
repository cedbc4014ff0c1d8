package train

import (
	"bytes"
	"context"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discspan/discspan/cuda"
)

// TestDevice checks --device: an unknown name is an error; "cuda" trains on
// the GPU where there is one (with the CPU's training loss, up to rounding)
// and is a clear error where there is none; "auto" says which device it
// took.
func TestDevice(t *testing.T) {
	base := t.TempDir()
	data := shortSentences(t, base, 30, 12)
	opts := func(name, device string) (Options, *bytes.Buffer) {
		o := resumeOptions(t, data, filepath.Join(base, name))
		o.Out = filepath.Join(base, name+".safetensors")
		o.Epochs, o.EMA, o.Device = 1, 0.99, device
		var log bytes.Buffer
		o.Log = &log
		return o, &log
	}
	o, _ := opts("bad", "gpu")
	if _, err := Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), "want auto, cpu or cuda") {
		t.Errorf("--device gpu: %v", err)
	}

	o, log := opts("auto", "auto")
	sumAuto, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	dev, openErr := cuda.Open(0)
	var u *cuda.Unavailable
	if errors.As(openErr, &u) {
		if !strings.Contains(log.String(), "device: cpu (cuda: no usable GPU") {
			t.Errorf("--device auto without a GPU should say it trains on the CPU and why; log:\n%s", log.String())
		}
		o, _ = opts("cuda", "cuda")
		if _, err := Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), "--device cuda") || !strings.Contains(err.Error(), "no usable GPU") {
			t.Errorf("--device cuda without a GPU: %v, want an error saying there is none", err)
		}
		// Refused before the data are read: a missing training file is
		// not what it reports.
		o, _ = opts("cuda-nodata", "cuda")
		o.Train = filepath.Join(base, "missing.export")
		if _, err := Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), "no usable GPU") {
			t.Errorf("--device cuda without a GPU and without data: %v, want the GPU refused first", err)
		}
		t.Logf("no GPU here, so the GPU run is not compared with the CPU: %v", openErr)
		return
	}
	if openErr != nil {
		t.Fatal(openErr)
	}
	dev.Close()
	if !strings.Contains(log.String(), "device: cuda") {
		t.Errorf("--device auto with a GPU should train on it; log:\n%s", log.String())
	}
	o, _ = opts("cpu", "cpu")
	sumCPU, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	a, c := sumAuto.History[0].TrainLoss, sumCPU.History[0].TrainLoss
	if math.Abs(a-c) > 1e-3*math.Abs(c) {
		t.Errorf("first epoch's training loss: GPU %.6f, CPU %.6f", a, c)
	}
	t.Logf("first epoch's training loss: GPU %.6f, CPU %.6f; dev F1 %.2f and %.2f", a, c, sumAuto.History[0].DevF1, sumCPU.History[0].DevF1)
}
