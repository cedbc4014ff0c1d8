package train

import (
	"fmt"
	"math"
	"strings"
)

// Plot geometry, in SVG user units.
const (
	plotW, plotH                   = 640, 360
	plotLeft, plotRight            = 64, 64
	plotTop, plotBottom            = 40, 48
	lossColour, f1Colour, gridGrey = "#1f77b4", "#d62728", "#dddddd"
)

// PlotSVG draws the training loss (left axis) and the dev F1 (right axis)
// of each epoch as a standalone SVG document. It is a pure function of the
// history; an empty history gives empty axes.
func PlotSVG(history []EpochLog) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", plotW, plotH, plotW, plotH)
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")
	x0, x1 := float64(plotLeft), float64(plotW-plotRight)
	y0, y1 := float64(plotH-plotBottom), float64(plotTop)

	epochs := max(1, len(history))
	lossLo, lossHi := seriesRange(history, func(e EpochLog) float64 { return e.TrainLoss })
	f1Lo, f1Hi := seriesRange(history, func(e EpochLog) float64 { return e.DevF1 })
	lossLo, lossHi = niceRange(lossLo, lossHi)
	f1Lo, f1Hi = niceRange(f1Lo, f1Hi)
	xOf := func(epoch int) float64 {
		if epochs == 1 {
			return (x0 + x1) / 2
		}
		return x0 + (x1-x0)*float64(epoch-1)/float64(epochs-1)
	}
	yOf := func(v, lo, hi float64) float64 { return y0 - (y0-y1)*(v-lo)/(hi-lo) }

	// Grid and axis labels: 5 intervals on each axis.
	for k := 0; k <= 5; k++ {
		y := y0 - (y0-y1)*float64(k)/5
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>`+"\n", x0, y, x1, y, gridGrey)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end" fill="%s">%s</text>`+"\n", x0-6, y+4, lossColour, tick(lossLo+(lossHi-lossLo)*float64(k)/5))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="%s">%s</text>`+"\n", x1+6, y+4, f1Colour, tick(f1Lo+(f1Hi-f1Lo)*float64(k)/5))
	}
	step := max(1, epochs/10)
	for e := 1; e <= epochs; e += step {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%d</text>`+"\n", xOf(e), y0+16, e)
	}
	fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="black"/>`+"\n", x0, y1, x1-x0, y0-y1)
	fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">epoch</text>`+"\n", (x0+x1)/2, plotH-10)
	fmt.Fprintf(&b, `<text x="%.1f" y="20" fill="%s">train loss (per sentence)</text>`+"\n", x0, lossColour)
	fmt.Fprintf(&b, `<text x="%.1f" y="20" text-anchor="end" fill="%s">dev F1 (%%)</text>`+"\n", x1, f1Colour)

	// The two series.
	series := func(colour string, val func(EpochLog) float64, lo, hi float64) {
		if len(history) == 0 {
			return
		}
		var pts []string
		for _, e := range history {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", xOf(e.Epoch-history[0].Epoch+1), yOf(val(e), lo, hi)))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>`+"\n", colour, strings.Join(pts, " "))
		for _, p := range pts {
			xy := strings.Split(p, ",")
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="2.5" fill="%s"/>`+"\n", xy[0], xy[1], colour)
		}
	}
	series(lossColour, func(e EpochLog) float64 { return e.TrainLoss }, lossLo, lossHi)
	series(f1Colour, func(e EpochLog) float64 { return e.DevF1 }, f1Lo, f1Hi)
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

// seriesRange returns the smallest and largest finite value of a series
// (0, 1 when there is none).
func seriesRange(h []EpochLog, val func(EpochLog) float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, e := range h {
		if v := val(e); !math.IsNaN(v) && !math.IsInf(v, 0) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if lo > hi {
		return 0, 1
	}
	return lo, hi
}

// niceRange widens [lo,hi] to round numbers that split into 5 intervals.
func niceRange(lo, hi float64) (float64, float64) {
	if hi-lo < 1e-9 {
		lo, hi = lo-1, hi+1
	}
	step := math.Pow(10, math.Floor(math.Log10((hi-lo)/5)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if s := step * m; math.Floor(lo/s)*s+5*s >= hi {
			lo = math.Floor(lo/s) * s
			return lo, lo + 5*s
		}
	}
	s := step * 20
	lo = math.Floor(lo/s) * s
	return lo, lo + 5*s
}

// tick formats an axis value compactly.
func tick(v float64) string {
	s := fmt.Sprintf("%.4g", v)
	if s == "-0" {
		s = "0"
	}
	return s
}
