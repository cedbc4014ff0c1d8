package train

import (
	"fmt"

	"github.com/discspan/discspan/netcuda"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
)

// Devices of Options.Device.
const (
	DeviceAuto = "auto" // CUDA when a usable GPU is there, else the CPU
	DeviceCPU  = "cpu"
	DeviceCUDA = "cuda"
)

// Device holds a run's state (the parameters, Adam's moments and the
// average) during the epochs on a device other than the CPU reference, and
// runs the training steps there: netcuda.Device on an NVIDIA GPU. Its steps
// must match network's (the same losses and updates, up to rounding).
type Device interface {
	// Step runs one training step on batch: the loss and gradient with
	// dropout masks drawn from seed (as network.Model.LossGrad), clipping,
	// Adam update number step with adam's settings, and the average moved
	// with decay (0 without one).
	Step(batch []network.Example, seed uint64, adam network.AdamConfig, step int, decay float64) (network.Loss, error)
	// Sync copies the parameters, moments and average (nil: none) back to
	// the host.
	Sync(params, m, v, avg *network.Params) error
	// Describe names the device.
	Describe() string
	// Close releases the device.
	Close() error
}

var _ Device = (*netcuda.Device)(nil)

// checkDevice reports an error for an unknown device name.
func checkDevice(d string) error {
	switch d {
	case "", DeviceAuto, DeviceCPU, DeviceCUDA:
		return nil
	}
	return fmt.Errorf("train: device %q: want auto, cpu or cuda", d)
}

// openDevice moves the run's state to the GPU when Options.Device asks for
// it (or allows it, with auto, and there is a usable GPU) and the run's
// options are implemented there; it logs which device trains and why.
func (t *trainer) openDevice() error {
	want := t.opts.Device
	if want == "" {
		want = DeviceAuto
	}
	if want == DeviceCPU {
		t.logf("device: cpu")
		return nil
	}
	if t.set.Hinge > 0 {
		if want == DeviceCUDA {
			return fmt.Errorf("train: --device cuda: %s", hingeOnCPU)
		}
		t.logf("device: cpu (%s)", hingeOnCPU)
		return nil
	}
	dev, err := netcuda.Open(t.model.Params, t.adam.M, t.adam.V, t.ema)
	switch {
	case err == nil:
	case want == DeviceAuto && (netcuda.Unavailable(err) || netcuda.OutOfMemory(err)):
		t.logf("device: cpu (%v)", err)
		return nil
	case netcuda.Unavailable(err):
		return fmt.Errorf("train: --device %s: %w", want, err)
	default:
		return fmt.Errorf("train: %w", err)
	}
	t.gpu = dev
	t.logf("device: cuda, %s", dev.Describe())
	return nil
}

// syncDevice copies the state that lives on the GPU back to the host (the
// parameters, Adam's moments and the average): before evaluations and
// checkpoints.
func (t *trainer) syncDevice() error {
	if t.gpu == nil {
		return nil
	}
	if err := t.gpu.Sync(t.model.Params, t.adam.M, t.adam.V, t.ema); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return nil
}

// closeDevice frees the GPU.
func (t *trainer) closeDevice() {
	if t.gpu != nil {
		_ = t.gpu.Close()
		t.gpu = nil
	}
}

// gpuTeacher scores with the teacher's models on the GPU (their mean, one
// netcuda.Scorer each) when every one opens there, and otherwise on the CPU,
// saying why: the scoring is a one-off before the first epoch, so a teacher
// that does not fit does not stop the run; strict (--device cuda, asked
// for) makes that an error instead of hours on the CPU.
func gpuTeacher(models []*network.Model, strict bool) (scorer.Scorer, string, error) {
	if len(models) == 0 {
		return scorer.MeanCPU(models), "cpu", nil
	}
	var members []scorer.Scorer
	for _, m := range models {
		s, err := netcuda.OpenScorer(m)
		if err != nil {
			for _, o := range members {
				o.Close()
			}
			if strict {
				return nil, "", fmt.Errorf("--device cuda: %w", err)
			}
			return scorer.MeanCPU(models), fmt.Sprintf("cpu (%v)", err), nil
		}
		members = append(members, s)
	}
	return scorer.Mean(members...), members[0].Backend(), nil
}

// hingeOnCPU says why --device cuda and --hinge do not go together.
const hingeOnCPU = "the hinge loss (--hinge) runs on the CPU only"

// probeCUDA opens the GPU and closes it again: with --device cuda a run
// without a usable GPU is refused before its data is read and scored.
func probeCUDA() error {
	if err := netcuda.Probe(); err != nil {
		return fmt.Errorf("train: --device cuda: %w", err)
	}
	return nil
}
