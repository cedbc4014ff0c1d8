package weights

import (
	"os"
	"runtime"
	"testing"

	"github.com/discspan/discspan/network"
)

// TestShippedDefault checks the shipped default model against the browser
// budget: at most 8 MB, its models of a browser-sized preset (tiny or
// small, with its own vocabulary; not paper), and a recorded dev F1 that a
// working model reaches.
func TestShippedDefault(t *testing.T) {
	const budget = 8_000_000
	f, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if f.Bytes > budget {
		t.Errorf("%s: %d bytes, want at most %d", DefaultName, f.Bytes, budget)
	}
	preset := ""
	for _, name := range []string{"tiny", "small"} {
		c, err := network.Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		if c.WithVocab(f.Meta.Vocab) == f.Meta.Config {
			preset = name
		}
	}
	if preset == "" {
		t.Errorf("config %+v, want the tiny or small preset", f.Meta.Config)
	}
	if _, err := f.Models(); err != nil {
		t.Fatal(err)
	}
	if f.Meta.DevF1 < 75 {
		t.Errorf("recorded dev F1 %.2f: not a trained model", f.Meta.DevF1)
	}
	t.Logf("%s: %d models (%s), %s, %d bytes, dev F1 %.2f (disc. %.2f)", DefaultName, f.Ensemble, preset, f.DType, f.Bytes, f.Meta.DevF1, f.Meta.DevDiscF1)
}

// Reading a header checks the tensors' names and shapes without making
// them: reading the shipped file's header allocates less than the file
// holds (it made a zero copy of every parameter, 27 MB for this 6.6 MB
// file).
func TestReadMetaAllocatesLittle(t *testing.T) {
	st, err := os.Stat("default.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := ReadMeta("default.safetensors"); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(st.Size()) {
		t.Errorf("reading the header of a %d-byte file allocated %d bytes", st.Size(), got)
	}
}
