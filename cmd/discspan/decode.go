package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
)

// decodeOutput is the JSON printed by discspan decode.
type decodeOutput struct {
	Variant      string            `json:"variant"`
	Score        float32           `json:"score"`
	Constituents []constituentJSON `json:"constituents"`
	Tree         string            `json:"tree"`
}

type constituentJSON struct {
	Label  string   `json:"label"`
	Blocks [][2]int `json:"blocks"`
}

// maxChartMB is the largest --max-mb (8 TiB; larger budgets would
// overflow in bytes).
const maxChartMB = 1 << 23

func runDecode(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("decode", "--variant V --scores FILE.json [--constraints C.json]", stdout)
	variant := fs.String("variant", "n3", "decoder variant: continuous, n3, n4, n5wn, n5, n6wn, n6")
	scores := fs.String("scores", "", "score file (JSON with words, labels, cont, disc, gap)")
	constraints := fs.String("constraints", "", `constraint file: {"require":[{"label":"NP","blocks":[[0,2]]}],"forbid":[{"blocks":[[1,3],[5,6]]}]}`)
	maxMB := fs.Int64("max-mb", decode.DefaultMaxBytes>>20, "memory budget in MiB: of the chart, and of reading the score file (about 16 times its size)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, rest, 0, "no positional arguments"); err != nil {
		return err
	}
	if *scores == "" {
		return fmt.Errorf("%w: --scores FILE is required", errUsage)
	}
	if *maxMB < 1 || *maxMB > maxChartMB {
		return fmt.Errorf("%w: --max-mb %d: want a chart budget of 1 to %d MiB", errUsage, *maxMB, maxChartMB)
	}
	v, err := decode.ParseVariant(*variant)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	file, s, err := readScores(*scores, *maxMB<<20)
	if err != nil {
		return err
	}
	var c *decode.Constraints
	if *constraints != "" {
		if c, err = readConstraints(*constraints, file.Labels); err != nil {
			return err
		}
	}
	d, err := decode.DecodeConstrained(v, s, c, &decode.Options{MaxBytes: *maxMB << 20})
	if err != nil {
		if c != nil && (errors.Is(err, decode.ErrBadConstraint) || errors.Is(err, decode.ErrUnsatisfiable)) {
			return fmt.Errorf("%s: %w", *constraints, err)
		}
		return err
	}
	t, err := d.Tree(file.Words, nil, file.Labels)
	if err != nil {
		return err
	}
	var sb strings.Builder
	if err := treebank.WriteDiscbracket(&sb, []*tree.Tree{t}); err != nil {
		return err
	}
	out := decodeOutput{Variant: v.String(), Score: d.Score, Tree: strings.TrimSpace(sb.String()), Constituents: []constituentJSON{}}
	for idx, y := range t.Yields() {
		c := constituentJSON{Label: t.Nodes[idx].Label}
		c.Blocks = append(c.Blocks, blocksOf(y)...)
		out.Constituents = append(out.Constituents, c)
	}
	enc := json.NewEncoder(stdout)
	return enc.Encode(out)
}

// readScores reads a score file.
func readScores(name string, budget int64) (*decode.ScoreFile, *decode.Scores, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	// Reading takes about scoreFileExpansion times the file's size (its
	// text, the lists of numbers, then the scores): a file too large for
	// the budget is refused before it is read, and a pipe as soon as more
	// than that has come.
	limit := budget / scoreFileExpansion
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > limit {
		return nil, nil, fmt.Errorf("%w: %s: %d KiB of scores take about %d KiB to read; a budget of %d MiB (--max-mb) reads score files of at most %d KiB",
			decode.ErrTooLong, name, (st.Size()+1023)>>10, (st.Size()*scoreFileExpansion+1023)>>10, budget>>20, limit>>10)
	}
	tooMuch := fmt.Errorf("%w: more than %d KiB of scores; a budget of %d MiB (--max-mb) reads score files of at most that", decode.ErrTooLong, limit>>10, budget>>20)
	return decode.ReadScoreFile(&cappedReader{r: f, left: limit + 1, err: tooMuch}, name)
}

// cappedReader reads from r until left bytes have been read, then fails
// with err: a reader of more than left-1 bytes is refused as soon as its
// next byte comes.
type cappedReader struct {
	r    io.Reader
	left int64
	err  error
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, c.err
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// scoreFileExpansion bounds the memory reading a score file takes, as a
// multiple of its size: measured, 16 (a 27 MB file of 1,500 words and one
// label peaked at 430 MB).
const scoreFileExpansion = 16

// readConstraints reads a constraint file whose labels are names from the
// score file's labels.
func readConstraints(name string, labels []string) (*decode.Constraints, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return decode.ReadConstraintFile(f, name, labels)
}
