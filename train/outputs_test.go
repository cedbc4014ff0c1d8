package train

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discspan/discspan/network"
)

// TestOutputsChecked: a run whose output, checkpoint, log or plot would be
// one of its inputs (under the same or another name), or a folder, or in a
// folder that does not exist, is refused before any work, the inputs left
// as they were; so is a dev treebank without trees.
func TestOutputsChecked(t *testing.T) {
	dir := t.TempDir()
	data := shortSentences(t, dir, 12, 8)
	dev := filepath.Join(dir, "dev.discbracket")
	if err := os.WriteFile(dev, readFile(t, data), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.discbracket")
	if err := os.Symlink(dev, link); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.discbracket")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(dir, "folder")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.safetensors")
	settings := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(settings, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		set  func(*Options)
		want string
	}{
		{"output is the dev data", func(o *Options) { o.Out = dev }, "the output " + dev + " is also the dev data"},
		{"output is the training data", func(o *Options) { o.Out = data }, "is also the training data"},
		{"output is a repeated training file", func(o *Options) { o.Train = data + "*2"; o.Out = data }, "is also the training data"},
		{"output is a link to the dev data", func(o *Options) { o.Out = link }, "is also the dev data"},
		{"output through another spelling", func(o *Options) { o.Out = filepath.Join(dir, ".", "dev.discbracket") }, "is also the dev data"},
		{"checkpoint is the training data", func(o *Options) { o.Checkpoint = data }, "the checkpoint " + data + " is also the training data"},
		{"log is the dev data", func(o *Options) { o.Out = strings.TrimSuffix(dev, ".log.jsonl") + "x"; o.Dev = o.Out + ".log.jsonl" }, "the log"},
		{"output is a folder", func(o *Options) { o.Out = folder }, "is a folder"},
		{"output in a missing folder", func(o *Options) { o.Out = filepath.Join(dir, "no", "out.safetensors") }, "the folder of the output"},
		{"checkpoint in a missing folder", func(o *Options) { o.Checkpoint = filepath.Join(dir, "no", "run.ckpt") }, "the folder of the checkpoint"},
		{"dev data without trees", func(o *Options) { o.Dev = empty }, "no trees in the dev data"},
		{"output is the configuration file", func(o *Options) { o.ConfigFile = settings; o.Out = settings }, "the output " + settings + " is also the network configuration"},
		{"output is the optimiser file", func(o *Options) { o.AdamFile = settings; o.Out = settings }, "the output " + settings + " is also the optimiser settings"},
		{"profile is the training data", func(o *Options) { o.ProfileFile = data }, "the CPU profile " + data + " is also the training data"},
		{"profile is the output", func(o *Options) { o.ProfileFile = out }, "the CPU profile " + out + " is also the output"},
		{"profile in a missing folder", func(o *Options) { o.ProfileFile = filepath.Join(dir, "no", "cpu.prof") }, "the folder of the CPU profile"},
		{"checkpoint is the output", func(o *Options) { o.Checkpoint = out }, "the checkpoint " + out + " is also the output"},
	}
	before := readFile(t, dev)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := Options{Train: data, Dev: dev, Out: out, Config: smallConfig(), Epochs: 1, Device: "cpu", Workers: 1}
			tc.set(&o)
			_, err := Run(t.Context(), o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			if !bytes.Equal(readFile(t, dev), before) {
				t.Fatal("the dev data changed")
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s written", out)
			}
		})
	}
}

// TestDiverged: a learning rate far too high makes the parameters infinite
// while the loss of the batch before is still finite; the run stops saying
// that it diverged, before parsing the dev data with them, and writes no
// checkpoint of them.
func TestDiverged(t *testing.T) {
	dir := t.TempDir()
	data := shortSentences(t, dir, 12, 8)
	out := filepath.Join(dir, "out.safetensors")
	adam := network.DefaultAdam()
	adam.LR = 1e15
	o := Options{Train: data, Dev: data, Out: out, Config: smallConfig(), Adam: &adam, Epochs: 3, Device: "cpu", Workers: 1}
	_, err := Run(t.Context(), o)
	if err == nil || !strings.Contains(err.Error(), "the training diverged") || !strings.Contains(err.Error(), "lower the learning rate") {
		t.Fatalf("error %v; want one saying the training diverged", err)
	}
	if _, err := os.Stat(out + ".ckpt"); err == nil {
		c, err := readCheckpoint(out + ".ckpt")
		if err != nil {
			t.Fatal(err)
		}
		ts, err := fromRaw(c.Params)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range ts {
			for _, v := range x.Data {
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					t.Fatalf("the checkpoint holds %s = %v", x.Name, v)
				}
			}
		}
	}
}

// TestCommaInPath: a training file whose path has a comma (a folder named
// so, as a server's jobs folder may be) is read as one file, not as a list.
func TestCommaInPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "jobs,2026")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data := shortSentences(t, dir, 12, 8)
	if !strings.Contains(data, ",") {
		t.Fatalf("%s has no comma", data)
	}
	out := filepath.Join(dir, "out.safetensors")
	if _, err := Run(t.Context(), Options{Train: data, Dev: data, Out: out, Config: smallConfig(), Epochs: 1, Device: "cpu", Workers: 1}); err != nil {
		t.Fatalf("training on %s: %v", data, err)
	}
	if _, err := os.Stat(out); err != nil {
		t.Error(err)
	}
}
