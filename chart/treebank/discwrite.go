package treebank

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/discspan/discspan/chart/tree"
)

// parenEscapes are how a discbracket file writes ( and ) in words, tags
// and labels.
type parenEscapes struct{ open, close string }

var (
	// discoParens are disco-dop's escapes, which the readers decode.
	discoParens = parenEscapes{"#LRB#", "#RRB#"}
	// ptbParens are the Penn Treebank's, which the Alpino cdb discbracket
	// files use; the readers keep them as they are.
	ptbParens = parenEscapes{"-LRB-", "-RRB-"}
)

// appendDiscbracket appends t as one discbracket line: "(ROOT ...)" with
// the children of every node sorted by their leftmost word, then a TAB and
// t.BOSExtra when that is not empty, then "\n". Lemmas, morphology,
// function labels, secondary edges, comments and node numbers are not
// written. Parentheses are written as p says.
func appendDiscbracket(dst []byte, t *tree.Tree, p parenEscapes) ([]byte, error) {
	l, err := makeLayout(t)
	if err != nil {
		return dst, err
	}
	if err := l.checkDepth(); err != nil {
		return dst, err
	}
	for i, f := range l.first {
		if f == noWord {
			return dst, fmt.Errorf("node %d (%s) dominates no word", i, t.Nodes[i].Label)
		}
	}
	if strings.ContainsAny(t.BOSExtra, "\r\n") {
		return dst, errors.New("comment (BOSExtra) contains a line break")
	}
	dst = append(dst, "(ROOT"...)
	type frame struct{ slot, next int }
	stack := []frame{{slot: len(t.Nodes)}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		ks := l.kids[f.slot]
		if f.next == len(ks) {
			dst = append(dst, ')')
			stack = stack[:len(stack)-1]
			continue
		}
		c := ks[f.next]
		f.next++
		dst = append(dst, " ("...)
		if c.node {
			if dst, err = appendAtom(dst, t.Nodes[c.idx].Label, p); err != nil {
				return dst, fmt.Errorf("node %d: label %q: %w", c.idx, t.Nodes[c.idx].Label, err)
			}
			stack = append(stack, frame{slot: c.idx})
			continue
		}
		tok := &t.Tokens[c.idx]
		tag := tok.Tag
		if tag == "" {
			tag = "--"
		}
		if dst, err = appendAtom(dst, tag, p); err != nil {
			return dst, fmt.Errorf("token %d: tag %q: %w", c.idx, tok.Tag, err)
		}
		dst = append(dst, ' ')
		dst = strconv.AppendInt(dst, int64(c.idx), 10)
		dst = append(dst, '=')
		if dst, err = appendAtom(dst, tok.Word, p); err != nil {
			return dst, fmt.Errorf("token %d: word %q: %w", c.idx, tok.Word, err)
		}
		dst = append(dst, ')')
	}
	if t.BOSExtra != "" {
		dst = append(dst, '\t')
		dst = append(dst, t.BOSExtra...)
	}
	return append(dst, '\n'), nil
}

// appendAtom appends a label or word, writing ( and ) as p says. It
// refuses white space, disco-dop's escapes (a reader would take "#LRB#"
// for a parenthesis, and discbracket has no way to write it as such) and
// what checkText refuses.
func appendAtom(dst []byte, s string, p parenEscapes) ([]byte, error) {
	if err := checkText(s); err != nil {
		return dst, err
	}
	for _, esc := range [...]string{discoParens.open, discoParens.close} {
		if strings.Contains(s, esc) {
			return dst, fmt.Errorf("contains %s, which discbracket readers take for a parenthesis", esc)
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '(':
			dst = append(dst, p.open...)
		case c == ')':
			dst = append(dst, p.close...)
		case isSpace(c):
			return dst, errors.New("contains white space")
		default:
			dst = append(dst, c)
		}
	}
	return dst, nil
}
