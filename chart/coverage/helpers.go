package coverage

import (
	"errors"
	"strings"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
)

// splitChain returns the labels of a merged unary chain "A/B/C".
func splitChain(label string) []string { return strings.Split(label, tree.ChainSep) }

func isTooLong(err error) bool { return errors.Is(err, decode.ErrTooLong) }
