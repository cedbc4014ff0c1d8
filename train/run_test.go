package train

import (
	"testing"

	"github.com/discspan/discspan/network"
)

// TestDescribeNetwork checks the log's description of a run's network: the
// preset alone, or with the sizes and dropout rates a configuration changed.
func TestDescribeNetwork(t *testing.T) {
	small := network.Small()
	lowDropout := small
	lowDropout.DropChar, lowDropout.DropFeat, lowDropout.DropLSTM, lowDropout.DropMLP = 0.2, 0.2, 0.2, 0.2
	wider := small
	wider.LSTM1Hidden, wider.LSTM2Hidden = 320, 320
	slope := small
	slope.LeakySlope = 0.2
	cases := []struct {
		name, preset string
		c            network.Config
		want         string
	}{
		{"the preset", "small", small, "preset small"},
		{"the preset with its vocabulary", "small", small.WithVocab(&network.Vocab{Words: []string{"a", "b"}}), "preset small"},
		{"dropout changed", "small", lowDropout, "preset small with dropout char 0.2, features 0.2, LSTM 0.2, MLP 0.2"},
		{"sizes changed", "small", wider, "preset small with sizes word 96, char 32/64 (first 20 characters), LSTMs 320/320, label MLP 128, span MLP 128"},
		{"another preset's sizes", "tiny", small, "preset tiny with sizes word 96, char 32/64 (first 20 characters), LSTMs 288/288, label MLP 128, span MLP 128"},
		{"slope changed", "small", slope, "preset small with LeakyReLU slope 0.2"},
		{"an unknown preset", "huge", small, "preset huge"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := describeNetwork(c.preset, c.c); got != c.want {
				t.Errorf("describeNetwork(%q) = %q, want %q", c.preset, got, c.want)
			}
		})
	}
}
