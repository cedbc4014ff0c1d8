package netcuda

import (
	"errors"
	"fmt"

	"github.com/discspan/discspan/cuda"
	"github.com/discspan/discspan/network"
)

// Device is a training run's state on an NVIDIA GPU: the CUDA device and a
// Trainer holding the parameters, Adam's moments and the average. It is
// what package train trains with (train.Device); no CUDA type appears in
// its methods.
type Device struct {
	dev *cuda.Device
	t   *Trainer
}

// Open opens GPU 0 and copies params (and Adam's moments m and v, and the
// average avg, each nil for zeros / none) to it. Without a usable GPU the
// error satisfies Unavailable; when the model does not fit, OutOfMemory.
func Open(params, m, v, avg *network.Params) (*Device, error) {
	dev, t, err := openTrainer(params, m, v, avg, false)
	if err != nil {
		return nil, err
	}
	return &Device{dev: dev, t: t}, nil
}

// openTrainer opens GPU 0 and a Trainer on it (see NewTrainer; scoringOnly:
// newScoringTrainer), closing the device again when the trainer fails.
func openTrainer(params, m, v, avg *network.Params, scoringOnly bool) (*cuda.Device, *Trainer, error) {
	dev, err := cuda.Open(0)
	if err != nil {
		return nil, nil, err
	}
	t, err := newTrainer(dev, params, m, v, avg, scoringOnly)
	if err != nil {
		dev.Close()
		if cuda.OutOfMemory(err) {
			return nil, nil, fmt.Errorf("the model does not fit on %s: %w", dev.Name(), err)
		}
		return nil, nil, err
	}
	return dev, t, nil
}

// Probe opens GPU 0 and closes it again: nil when there is a usable GPU,
// else an error satisfying Unavailable.
func Probe() error {
	dev, err := cuda.Open(0)
	if err != nil {
		return err
	}
	return dev.Close()
}

// Unavailable reports whether err says that there is no usable GPU (no
// driver, no NVRTC or cuBLAS, no device).
func Unavailable(err error) bool {
	var u *cuda.Unavailable
	return errors.As(err, &u)
}

// OutOfMemory reports whether err is the GPU running out of memory.
func OutOfMemory(err error) bool { return cuda.OutOfMemory(err) }

// Describe names the GPU, its memory and driver.
func (d *Device) Describe() string { return d.dev.Describe() }

// Step runs one training step on batch (see Trainer.Step): dropout masks
// from seed, Adam update number step with adam's settings, the average
// updated with decay (0 without one).
func (d *Device) Step(batch []network.Example, seed uint64, adam network.AdamConfig, step int, decay float64) (network.Loss, error) {
	return d.t.Step(batch, seed, Update{Adam: adam, Step: step, Decay: decay})
}

// Sync copies the state back to the host (see Trainer.Sync).
func (d *Device) Sync(params, m, v, avg *network.Params) error {
	return d.t.Sync(params, m, v, avg)
}

// Close frees the device memory and closes the device.
func (d *Device) Close() error {
	return errors.Join(d.t.Close(), d.dev.Close())
}
