package network

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestPresets(t *testing.T) {
	cases := []struct {
		name     string
		cfg      Config
		maxBytes int
	}{
		{"tiny", Tiny(), 8_000_000},
		{"small", Small(), 0},
		{"paper", Paper(), 0},
	}
	if got := PresetNames(); len(got) != len(cases) {
		t.Errorf("PresetNames() = %v, want the %d presets tested here", got, len(cases))
	}
	if _, err := Preset("huge"); err == nil || !strings.Contains(err.Error(), "tiny, small, paper") {
		t.Errorf("Preset(huge): error %v, want one naming the presets", err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if byName, err := Preset(tc.name); err != nil || byName != tc.cfg {
				t.Errorf("Preset(%q) = %+v, %v; want %+v", tc.name, byName, err, tc.cfg)
			}
			if err := tc.cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			p, err := NewParams(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := p.NumParams(), tc.cfg.NumParams(); got != want {
				t.Errorf("NewParams has %d values, NumParams says %d", got, want)
			}
			t.Logf("%s: %d parameters, %d float16 bytes (%d-word vocabulary, %d labels)",
				tc.name, tc.cfg.NumParams(), tc.cfg.Float16Bytes(), tc.cfg.WordVocab, tc.cfg.Labels)
			if tc.maxBytes > 0 && tc.cfg.Float16Bytes() > tc.maxBytes {
				t.Errorf("%d float16 bytes, want at most %d", tc.cfg.Float16Bytes(), tc.maxBytes)
			}
		})
	}
}

func TestConfigJSON(t *testing.T) {
	c := Tiny()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var d Config
	if err := json.Unmarshal(b, &d); err != nil || d != c {
		t.Errorf("round trip: %+v, %v", d, err)
	}
	if !strings.Contains(string(b), `"lstm1_hidden":192`) {
		t.Errorf("unexpected JSON %s", b)
	}
}

func TestConfigValidate(t *testing.T) {
	cases := []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"zero word dim", func(c *Config) { c.WordDim = 0 }, "word_dim"},
		{"no labels", func(c *Config) { c.Labels = 0 }, "labels"},
		{"vocabulary without reserved ids", func(c *Config) { c.WordVocab = 2 }, "word_vocab"},
		{"dropout 1", func(c *Config) { c.DropMLP = 1 }, "drop_mlp"},
		{"negative dropout", func(c *Config) { c.DropChar = -0.1 }, "drop_char"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := Tiny()
			tc.edit(&c)
			err := c.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error about %s", err, tc.want)
			}
			if _, err := NewParams(c); err == nil {
				t.Error("NewParams accepted the config")
			}
		})
	}
}

func TestParamNames(t *testing.T) {
	p, _ := NewParams(tinyTestConfig())
	names := p.Names()
	if got, want := names[:4], []string{"word.emb", "char.emb", "char_lstm.fwd.w_ih", "char_lstm.fwd.w_hh"}; !slices.Equal(got, want) {
		t.Errorf("first names %q, want %q", got, want)
	}
	if got, want := names[len(names)-1], "gap.label.biaffine"; got != want {
		t.Errorf("last name %q, want %q", got, want)
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			t.Errorf("duplicate name %s", n)
		}
		seen[n] = true
		if p.Get(n) == nil || p.Get(n).Name != n {
			t.Errorf("Get(%s) failed", n)
		}
	}
	c := tinyTestConfig()
	want := map[string][]int{
		"lstm1.bwd.w_ih":      {4 * c.LSTM1Hidden, c.WordDim + 2*c.CharHidden},
		"lstm2.fwd.w_hh":      {4 * c.LSTM2Hidden, c.LSTM2Hidden},
		"disc.label.biaffine": {c.Labels, c.LabelMLP + 1, c.LabelMLP + 1},
		"cont.span.biaffine":  {1, c.SpanMLP + 1, c.SpanMLP + 1},
		"gap.span.right.w":    {c.SpanMLP, 2 * c.LSTM2Hidden},
		"tagger.w":            {c.Tags, 2 * c.LSTM1Hidden},
	}
	for name, shape := range want {
		if got := p.Get(name).Shape; !slices.Equal(got, shape) {
			t.Errorf("%s: shape %v, want %v", name, got, shape)
		}
	}
	if err := p.Set("tagger.b", []int{c.Tags}, make([]float32, c.Tags)); err != nil {
		t.Error(err)
	}
	if err := p.Set("tagger.b", []int{c.Tags + 1}, make([]float32, c.Tags+1)); err == nil {
		t.Error("Set accepted a wrong shape")
	}
	if err := p.Set("nope", nil, nil); err == nil {
		t.Error("Set accepted an unknown name")
	}
}
