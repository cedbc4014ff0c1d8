package train

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discspan/discspan/cuda/cudaemu"
)

// onStandin marks the child process of TestDistillOnDevice that runs on
// the CPU stand-in for CUDA.
const onStandin = "DISCSPAN_TEST_ON_CUDAEMU"

// TestDistillOnDevice trains with a teacher on the CUDA device (the
// teacher scoring there too) and on the CPU and compares the first epoch's
// training loss (1e-3 relative, as TestDevice). The device is the GPU
// where the NVIDIA driver is installed; elsewhere the test runs itself
// again in a child process on the CPU stand-in of package cudaemu, so that
// this process keeps the real driver search for TestDevice's "no GPU"
// case.
func TestDistillOnDevice(t *testing.T) {
	if os.Getenv(onStandin) == "" && !cudaemu.HasDriver() {
		dir := t.TempDir()
		lib, err := cudaemu.Build(dir)
		if errors.Is(err, cudaemu.ErrUnsupported) {
			t.Skipf("no GPU, and %v", err)
		}
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestDistillOnDevice$", "-test.v")
		cmd.Env = append(os.Environ(), onStandin+"=1", "DISCSPAN_CUDA_DRIVER="+lib, "DISCSPAN_CUDA_LIBS="+dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("on the CPU stand-in: %v\n%s", err, out)
		}
		t.Logf("on the CPU stand-in:\n%s", out)
		return
	}
	base := t.TempDir()
	data := shortSentences(t, base, 30, 12)
	teacher := resumeOptions(t, data, base)
	teacher.Out = filepath.Join(base, "teacher.safetensors")
	if _, err := Run(context.Background(), teacher); err != nil {
		t.Fatal(err)
	}
	run := func(device string) (*Summary, string) {
		o := resumeOptions(t, data, base)
		o.Out = filepath.Join(base, device+".safetensors")
		o.Epochs, o.Device, o.Teacher = 1, device, teacher.Out
		var log bytes.Buffer
		o.Log = &log
		sum, err := Run(context.Background(), o)
		if err != nil {
			t.Fatalf("--device %s --teacher: %v", device, err)
		}
		return sum, log.String()
	}
	onDevice, log := run(DeviceCUDA)
	if !strings.Contains(log, "device: cuda") || !strings.Contains(log, "teacher scored the training sentences on cuda: ") {
		t.Errorf("--device cuda --teacher did not score and train on the device; log:\n%s", log)
	}
	onCPU, log := run(DeviceCPU)
	if !strings.Contains(log, "teacher scored the training sentences on cpu\n") {
		t.Errorf("--device cpu --teacher did not score on the CPU; log:\n%s", log)
	}
	a, c := onDevice.History[0].TrainLoss, onCPU.History[0].TrainLoss
	if math.Abs(a-c) > 1e-3*math.Abs(c) {
		t.Errorf("first epoch's training loss with a teacher: device %.6f, CPU %.6f", a, c)
	}
	t.Logf("first epoch's training loss with a teacher: device %.6f, CPU %.6f", a, c)
}
