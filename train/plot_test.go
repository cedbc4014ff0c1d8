package train

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

func TestPlotSVG(t *testing.T) {
	for _, tc := range []struct {
		name    string
		history []EpochLog
		lines   int
	}{
		{"empty", nil, 0},
		{"one epoch", []EpochLog{{Epoch: 1, TrainLoss: 50, DevF1: 10}}, 2},
		{"three epochs", []EpochLog{{Epoch: 1, TrainLoss: 50, DevF1: 10}, {Epoch: 2, TrainLoss: 30, DevF1: 40}, {Epoch: 3, TrainLoss: 29.5, DevF1: 55.5}}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svg := PlotSVG(tc.history)
			dec := xml.NewDecoder(strings.NewReader(string(svg)))
			polylines, circles := 0, 0
			for {
				tok, err := dec.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("not well-formed XML: %v\n%s", err, svg)
				}
				if se, ok := tok.(xml.StartElement); ok {
					switch se.Name.Local {
					case "polyline":
						polylines++
					case "circle":
						circles++
					}
				}
			}
			if polylines != tc.lines || circles != 2*len(tc.history) {
				t.Errorf("%d polylines and %d circles, want %d and %d", polylines, circles, tc.lines, 2*len(tc.history))
			}
		})
	}
}

func TestNiceRange(t *testing.T) {
	for _, tc := range []struct{ lo, hi float64 }{{0, 1}, {29.5, 50}, {0, 97.3}, {5, 5}, {1e-3, 2e-3}, {-3, 1234}} {
		lo, hi := niceRange(tc.lo, tc.hi)
		if lo > tc.lo || hi < tc.hi {
			t.Errorf("niceRange(%g, %g) = %g, %g: does not cover", tc.lo, tc.hi, lo, hi)
		}
	}
}
