package train

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCheckpointRoundTripAndTruncation(t *testing.T) {
	dir := t.TempDir()
	data := shortSentences(t, dir, 5, 8)
	o, err := Options{Train: data, Out: filepath.Join(dir, "m.safetensors"), Config: smallConfig(), Seed: 3}.resolved()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := newTrainer(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	tr.st.Epoch, tr.st.Batch, tr.st.LossSum = 3, 2, 12.5
	if err := tr.saveCheckpoint(); err != nil {
		t.Fatal(err)
	}
	c, err := readCheckpoint(o.Checkpoint)
	if err != nil {
		t.Fatal(err)
	}
	if c.State.Epoch != 3 || c.State.Batch != 2 || c.State.LossSum != 12.5 || c.Settings.Seed != 3 {
		t.Errorf("state %+v, settings %+v", c.State, c.Settings)
	}
	p, err := paramsFromRaw(c.Settings.Config, c.Params)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range tr.model.Params.Tensors() {
		y := p.Tensors()[i]
		for j := range x.Data {
			if x.Data[j] != y.Data[j] {
				t.Fatalf("%s[%d]: %g read back as %g", x.Name, j, x.Data[j], y.Data[j])
			}
		}
	}
	v, err := c.vocabOf()
	if err != nil || len(v.Words) != len(tr.data.vocab.Words) {
		t.Fatalf("vocabulary: %v", err)
	}
	whole := readFile(t, o.Checkpoint)
	for _, n := range []int{0, 10, len(checkpointMagic) + 5, len(whole) / 2, len(whole) - 1} {
		if err := os.WriteFile(o.Checkpoint, whole[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := readCheckpoint(o.Checkpoint); err == nil {
			t.Errorf("checkpoint cut to %d of %d bytes read without error", n, len(whole))
		}
	}
}
