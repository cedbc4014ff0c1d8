package weights

import (
	"testing"

	"github.com/discspan/discspan/network"
)

// TestShippedDefault checks the shipped default model against the browser
// budget: at most 8 MB, every model of it the tiny preset (with its own
// vocabulary), and a recorded dev F1 that a working model reaches.
func TestShippedDefault(t *testing.T) {
	const budget = 8_000_000
	f, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if f.Bytes > budget {
		t.Errorf("%s: %d bytes, want at most %d", DefaultName, f.Bytes, budget)
	}
	if want := network.Tiny().WithVocab(f.Meta.Vocab); f.Meta.Config != want {
		t.Errorf("config %+v, want the tiny preset %+v", f.Meta.Config, want)
	}
	if _, err := f.Models(); err != nil {
		t.Fatal(err)
	}
	if f.Meta.DevF1 < 75 {
		t.Errorf("recorded dev F1 %.2f: not a trained model", f.Meta.DevF1)
	}
	t.Logf("%s: %d models, %s, %d bytes, dev F1 %.2f (disc. %.2f)", DefaultName, f.Ensemble, f.DType, f.Bytes, f.Meta.DevF1, f.Meta.DevDiscF1)
}
