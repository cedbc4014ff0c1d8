package treedraw

import (
	"encoding/xml"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/discspan/discspan/chart/treebank"
)

const devFile = "../../../shared/data/alpino-cdb/dev.punctmoved.discbracket"

// TestTreebank lays out every tree of the Alpino dev set, with and without
// tags and in compact mode, checks the invariants and reports the largest
// drawings.
func TestTreebank(t *testing.T) {
	if _, err := os.Stat(devFile); err != nil {
		t.Skipf("skipping: treebank not available: %v", err)
	}
	trees, err := treebank.ReadFile(devFile)
	if err != nil {
		t.Fatalf("ReadFile: %v", err)
	}
	for _, opt := range []struct {
		name string
		opt  Options
	}{
		{"tags", DefaultOptions()},
		{"no tags", Options{}},
		{"compact", Options{ShowTags: true, Compact: true}},
	} {
		t.Run(opt.name, func(t *testing.T) {
			var maxW, maxH, perWord float64
			maxRows, maxWords, crossing, disc := 0, 0, 0, 0
			var total time.Duration
			failed := 0
			for k, tr := range trees {
				start := time.Now()
				g, err := Layout(tr, opt.opt)
				total += time.Since(start)
				if err != nil {
					t.Errorf("tree %d: %v", k+1, err)
					continue
				}
				if bad := checkGrid(tr, g); len(bad) > 0 {
					if failed++; failed <= 3 {
						t.Errorf("tree %d: %d broken invariants, first %s\n%s", k+1, len(bad), bad[0], Text(g))
					}
				}
				if got, want := strings.Count(Text(g), "\n"), 2*g.Rows-1; got != want {
					t.Errorf("tree %d: text drawing has %d lines, want %d", k+1, got, want)
				}
				if err := wellFormed(SVG(g, SVGOptions{})); err != nil {
					t.Errorf("tree %d: SVG: %v", k+1, err)
				}
				maxW, maxH, maxRows = max(maxW, g.Width), max(maxH, g.Height), max(maxRows, g.Rows)
				maxWords = max(maxWords, g.Words)
				if g.Words > 0 {
					perWord = max(perWord, g.Width/float64(g.Words))
				}
				for _, e := range g.Edges {
					if e.Crossing {
						crossing++
					}
				}
				for _, nd := range g.Nodes {
					if nd.Discontinuous && nd.Kind == Phrase {
						disc++
					}
				}
			}
			if failed > 0 {
				t.Errorf("%d of %d trees break invariants", failed, len(trees))
			}
			t.Logf("%d trees (longest %d words): max width %.1f units (%.1f per word), max height %.1f units, max %d rows; %d discontinuous nodes, %d crossing edges; Layout %v per tree",
				len(trees), maxWords, maxW, perWord, maxH, maxRows, disc, crossing, total/time.Duration(len(trees)))
		})
	}
}

// wellFormed reports whether s is well-formed XML.
func wellFormed(s string) error {
	d := xml.NewDecoder(strings.NewReader(s))
	for {
		_, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
