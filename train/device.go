package train

import (
	"errors"
	"fmt"

	"github.com/discspan/discspan/cuda"
	"github.com/discspan/discspan/netcuda"
)

// Devices of Options.Device.
const (
	DeviceAuto = "auto" // CUDA when a usable GPU is there, else the CPU
	DeviceCPU  = "cpu"
	DeviceCUDA = "cuda"
)

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
	unsupported := ""
	switch {
	case t.set.Hinge > 0:
		unsupported = "the hinge loss (--hinge) runs on the CPU only"
	case t.set.Teacher != "":
		unsupported = "distillation (--teacher) runs on the CPU only"
	}
	if unsupported != "" {
		if want == DeviceCUDA {
			return fmt.Errorf("train: --device cuda: %s", unsupported)
		}
		t.logf("device: cpu (%s)", unsupported)
		return nil
	}
	dev, err := cuda.Open(0)
	if err != nil {
		var u *cuda.Unavailable
		if want == DeviceAuto && errors.As(err, &u) {
			t.logf("device: cpu (%v)", err)
			return nil
		}
		return fmt.Errorf("train: --device %s: %w", want, err)
	}
	gt, err := netcuda.NewTrainer(dev, t.model.Params, t.adam.M, t.adam.V, t.ema)
	if err != nil {
		dev.Close()
		if want == DeviceAuto && cuda.OutOfMemory(err) {
			t.logf("device: cpu (the model does not fit on %s: %v)", dev.Name(), err)
			return nil
		}
		return fmt.Errorf("train: %w", err)
	}
	t.gpu, t.gpuDev = gt, dev
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
		t.gpu.Close()
		t.gpuDev.Close()
		t.gpu, t.gpuDev = nil, nil
	}
}
