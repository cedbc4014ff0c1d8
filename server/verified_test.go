package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/discspan/discspan/server/api"
)

// TestModelsVerified: a weights file whose data fails its SHA-256 (one
// byte flipped, the header intact) is not listed, nor served; the verdict
// is kept while the file's size and modification time stay, and the file
// is verified again once they change.
func TestModelsVerified(t *testing.T) {
	dir := t.TempDir()
	writeModel(t, filepath.Join(dir, "default.safetensors"), 80, 1)
	bad := filepath.Join(dir, "bad.safetensors")
	sum := writeModel(t, bad, 70, 2)
	good, err := os.ReadFile(bad)
	if err != nil {
		t.Fatal(err)
	}
	damaged := append([]byte(nil), good...)
	damaged[len(damaged)-3] ^= 0x40
	if err := os.WriteFile(bad, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	stamp := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(bad, stamp, stamp); err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, Options{Weights: []string{dir}})
	names := func() []string {
		_, body := get(t, srv.URL+api.ModelsPath)
		var ms []api.Model
		if err := json.Unmarshal(body, &ms); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range ms {
			out = append(out, m.Name)
		}
		return out
	}
	if got := names(); strings.Join(got, " ") != "default" {
		t.Errorf("models %v, want only default", got)
	}
	if resp, _ := get(t, srv.URL+api.WeightsURL(sum)); resp.StatusCode != 404 {
		t.Errorf("damaged weights served: %d", resp.StatusCode)
	}
	// Repaired behind the server's back, same size and time: still the
	// cached verdict.
	if err := os.WriteFile(bad, good, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(bad, stamp, stamp); err != nil {
		t.Fatal(err)
	}
	if got := names(); strings.Join(got, " ") != "default" {
		t.Errorf("models %v after a repair with the same size and time, want the cached verdict", got)
	}
	later := stamp.Add(time.Minute)
	if err := os.Chtimes(bad, later, later); err != nil {
		t.Fatal(err)
	}
	if got := names(); strings.Join(got, " ") != "default bad" {
		t.Errorf("models %v after the repair, want default and bad", got)
	}
}
