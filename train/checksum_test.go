package train

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckpointChecksum flips one byte of a checkpoint at several offsets
// (the decoded settings, the middle of the parameters, the checksum
// itself): reading it fails, naming the damage, and so does a resumed run;
// the undamaged file reads back.
func TestCheckpointChecksum(t *testing.T) {
	dir := t.TempDir()
	data := shortSentences(t, dir, 5, 8)
	o, err := Options{Train: data, Out: filepath.Join(dir, "m.safetensors"), Config: smallConfig(), Seed: 3, Epochs: 2}.resolved()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := newTrainer(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	tr.st.Epoch = 1
	if err := tr.saveCheckpoint(); err != nil {
		t.Fatal(err)
	}
	whole := readFile(t, o.Checkpoint)
	if _, err := readCheckpoint(o.Checkpoint); err != nil {
		t.Fatalf("undamaged checkpoint: %v", err)
	}
	tests := []struct {
		name   string
		offset int
	}{
		{"after the magic", len(checkpointMagic) + 40},
		{"middle", len(whole) / 2},
		{"last byte before the checksum", len(whole) - 33},
		{"checksum", len(whole) - 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bad := []byte(string(whole))
			bad[tc.offset] ^= 0x10
			if err := os.WriteFile(o.Checkpoint, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := readCheckpoint(o.Checkpoint); err == nil || !strings.Contains(err.Error(), "the file is damaged") || !errors.Is(err, ErrBadCheckpoint) {
				t.Errorf("byte %d of %d flipped: error %v, want damage (ErrBadCheckpoint)", tc.offset, len(whole), err)
			}
			r := o
			r.Resume = true
			if _, err := Run(context.Background(), r); err == nil || !strings.Contains(err.Error(), "SHA-256") || !errors.Is(err, ErrBadCheckpoint) {
				t.Errorf("resume from a damaged checkpoint: error %v", err)
			}
		})
	}
}

// TestResumeWithoutCheckpoint: --resume without a checkpoint says so and
// how to go on, rather than only "no such file".
func TestResumeWithoutCheckpoint(t *testing.T) {
	dir := t.TempDir()
	data := shortSentences(t, dir, 5, 8)
	_, err := Run(context.Background(), Options{Train: data, Out: filepath.Join(dir, "m.safetensors"), Config: smallConfig(), Resume: true})
	if err == nil || !strings.Contains(err.Error(), "no checkpoint") || !strings.Contains(err.Error(), "m.safetensors.ckpt") || !strings.Contains(err.Error(), "without --resume") {
		t.Errorf("error %v", err)
	}
}

// TestRunSweepsTemporaries: the zero-byte temporaries a killed run left
// beside its output, checkpoint and log are removed when a run starts;
// other files stay.
func TestRunSweepsTemporaries(t *testing.T) {
	dir := t.TempDir()
	data := shortSentences(t, dir, 5, 8)
	stale := []string{".m.safetensors.tmp-1", ".m.safetensors.ckpt.tmp-2", ".m.safetensors.log.jsonl.tmp-3"}
	keep := ".other.safetensors.tmp-4"
	for _, f := range append(stale, keep) {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Run(context.Background(), Options{Train: data, Out: filepath.Join(dir, "m.safetensors"), Config: smallConfig(), Epochs: 1, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	for _, f := range stale {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s left", f)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, keep)); err != nil {
		t.Errorf("another file's temporary removed: %v", err)
	}
}
