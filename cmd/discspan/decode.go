package main

import (
	"encoding/json"
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

func runDecode(args []string, stdout io.Writer) error {
	fs := newFlags("decode", "--variant V --scores FILE.json", stdout)
	variant := fs.String("variant", "n3", "decoder variant: continuous, n3, n4, n5wn, n5, n6wn, n6")
	scores := fs.String("scores", "", "score file (JSON with words, labels, cont, disc, gap)")
	maxMB := fs.Int64("max-mb", decode.DefaultMaxBytes>>20, "chart memory budget in MiB")
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
	v, err := decode.ParseVariant(*variant)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	f, err := os.Open(*scores)
	if err != nil {
		return err
	}
	defer f.Close()
	file, s, err := decode.ReadScoreFile(f, *scores)
	if err != nil {
		return err
	}
	d, err := decode.Decode(v, s, &decode.Options{MaxBytes: *maxMB << 20})
	if err != nil {
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
		for _, b := range blocksOf(y) {
			c.Blocks = append(c.Blocks, b)
		}
		out.Constituents = append(out.Constituents, c)
	}
	enc := json.NewEncoder(stdout)
	return enc.Encode(out)
}
