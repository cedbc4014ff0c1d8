package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discspan/discspan/server"
	"github.com/discspan/discspan/weights"
)

// TestServeWeights checks which model discspan serve offers: the
// --weights value, else weights/default.safetensors in the working
// directory, else (outside the repository) the model embedded in the
// binary, which the server then lists and serves.
func TestServeWeights(t *testing.T) {
	embedded := sha256.Sum256(weights.DefaultBytes())
	for _, tc := range []struct {
		name      string
		flag      string
		repo      bool // a weights/default.safetensors in the working directory
		wantPath  string
		wantNote  bool
		wantModel bool // the server lists the embedded model
	}{
		{name: "flag", flag: "models", wantPath: "models"},
		{name: "in the repository", repo: true, wantPath: defaultWeights, wantModel: true},
		{name: "outside the repository", wantNote: true, wantModel: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			if tc.repo {
				if err := os.Mkdir("weights", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(defaultWeights, weights.DefaultBytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			path, note, cleanup, err := serveWeights(tc.flag)
			if err != nil {
				t.Fatal(err)
			}
			defer cleanup()
			if tc.wantPath != "" && path != tc.wantPath {
				t.Errorf("path %q, want %q", path, tc.wantPath)
			}
			if got := note != ""; got != tc.wantNote || tc.wantNote && !strings.Contains(note, "embedded") {
				t.Errorf("note %q, want one: %v", note, tc.wantNote)
			}
			if !tc.wantModel {
				return
			}
			h, err := server.New(server.Options{Weights: []string{path}, Logf: t.Logf})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			ms, err := h.Models()
			if err != nil {
				t.Fatal(err)
			}
			if len(ms) != 1 || ms[0].SHA256 != hex.EncodeToString(embedded[:]) {
				t.Fatalf("models %+v, want the embedded default model (sha256 %x)", ms, embedded)
			}
			cleanup()
			if _, err := os.Stat(filepath.Dir(path)); tc.wantNote && !os.IsNotExist(err) {
				t.Errorf("the embedded model's temporary directory is left after cleanup: %v", err)
			}
		})
	}
}
