package treebank

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/discspan/discspan/chart/tree"
)

// exportHeader returns the column comment that starts an export file.
func exportHeader(version int) string {
	if version == 3 {
		return "%% word\ttag\tmorph\tedge\tparent\tsecedge\n"
	}
	return "%% word\tlemma\ttag\tmorph\tedge\tparent\tsecedge\n"
}

// appendExport appends sentence t in export format version 3 or 4, from
// "#BOS" to "#EOS". An empty t.ID is replaced by fallbackID. Node numbers are
// kept when they are all distinct and in 500..999, and the nodes are then
// written in the order of t.Nodes; otherwise all nodes are numbered from 500
// in post-order (children before parents, siblings by leftmost word) and
// written in that order. A line longer than MaxLineBytes, which the reader
// would refuse, is an error naming it (each line is measured as it ends).
func appendExport(dst []byte, t *tree.Tree, version int, fallbackID string) ([]byte, error) {
	l, err := makeLayout(t)
	if err != nil {
		return dst, err
	}
	if len(t.Nodes) > maxNodes { // so never nested deeper than MaxDepth
		return dst, fmt.Errorf("%d nodes: export allows at most %d (#%d..#%d)", len(t.Nodes), maxNodes, minNodeNum, maxNodeNum)
	}
	id := t.ID
	if id == "" {
		id = fallbackID
	}
	if err := checkExportField(id, false); err != nil {
		return dst, fmt.Errorf("sentence id %q: %w", id, err)
	}
	if strings.ContainsAny(t.BOSExtra, "\r\n") {
		return dst, errors.New("#BOS extra text contains a line break")
	}
	nums, order := nodeNumbers(t, l)

	start := len(dst)
	dst = append(dst, "#BOS "...)
	dst = append(dst, id...)
	if t.BOSExtra != "" {
		dst = append(dst, ' ')
		dst = append(dst, t.BOSExtra...)
	}
	dst = append(dst, '\n')
	if err := checkLine(dst, start); err != nil {
		return dst, fmt.Errorf("the #BOS line: %w", err)
	}
	parent := func(p int) int {
		if p == tree.Root {
			return 0
		}
		return nums[p]
	}
	for i := range t.Tokens {
		tok := &t.Tokens[i]
		if err := checkWord(tok.Word); err != nil {
			return dst, fmt.Errorf("token %d: word %q: %w", i, tok.Word, err)
		}
		if err := checkExportValues(tok.Comment, tok.Sec, tok.Word, tok.Lemma, tok.Tag, tok.Morph, tok.Edge); err != nil {
			return dst, fmt.Errorf("token %d (%q): %w", i, tok.Word, err)
		}
		start := len(dst)
		dst = appendOpt(dst, tok.Word)
		if version == 4 {
			dst = appendOpt(append(dst, '\t'), tok.Lemma)
		}
		dst = appendOpt(append(dst, '\t'), tok.Tag)
		dst = appendOpt(append(dst, '\t'), tok.Morph)
		dst = appendOpt(append(dst, '\t'), tok.Edge)
		dst = strconv.AppendInt(append(dst, '\t'), int64(parent(tok.Parent)), 10)
		dst = appendSec(dst, tok.Sec, parent)
		dst = appendComment(dst, tok.Comment)
		if err := checkLine(dst, start); err != nil {
			return dst, fmt.Errorf("token %d (%q): %w", i, clipStr(tok.Word), err)
		}
	}
	for _, i := range order {
		nd := &t.Nodes[i]
		if err := checkExportValues(nd.Comment, nd.Sec, nd.Lemma, nd.Label, nd.Morph, nd.Edge); err != nil {
			return dst, fmt.Errorf("node %d (%s): %w", i, nd.Label, err)
		}
		start := len(dst)
		dst = append(dst, '#')
		dst = strconv.AppendInt(dst, int64(nums[i]), 10)
		if version == 4 {
			dst = appendOpt(append(dst, '\t'), nd.Lemma)
		}
		dst = appendOpt(append(dst, '\t'), nd.Label)
		dst = appendOpt(append(dst, '\t'), nd.Morph)
		dst = appendOpt(append(dst, '\t'), nd.Edge)
		dst = strconv.AppendInt(append(dst, '\t'), int64(parent(nd.Parent)), 10)
		dst = appendSec(dst, nd.Sec, parent)
		dst = appendComment(dst, nd.Comment)
		if err := checkLine(dst, start); err != nil {
			return dst, fmt.Errorf("node %d (%s): %w", i, clipStr(nd.Label), err)
		}
	}
	// Never longer than the #BOS line, which has the same id after "#BOS ".
	dst = append(dst, "#EOS "...)
	dst = append(dst, id...)
	return append(dst, '\n'), nil
}

// nodeNumbers returns the number of every node, in export lines and TIGER-XML
// ids alike, and the order in which to write the nodes: Node.Num and the
// order of Tree.Nodes when all numbers are distinct and in 500..999, else
// numbers from 500 in post-order (see appendExport).
func nodeNumbers(t *tree.Tree, l *layout) (nums, order []int) {
	nums = make([]int, len(t.Nodes))
	var seen [maxNodes]bool
	keep := true
	for i, nd := range t.Nodes {
		if nd.Num < minNodeNum || nd.Num > maxNodeNum || seen[nd.Num-minNodeNum] {
			keep = false
			break
		}
		seen[nd.Num-minNodeNum] = true
		nums[i] = nd.Num
	}
	if keep {
		order = make([]int, len(t.Nodes))
		for i := range order {
			order[i] = i
		}
		return nums, order
	}
	order = l.postOrder()
	for k, i := range order {
		nums[i] = minNodeNum + k
	}
	return nums, order
}

// appendOpt appends a field, writing the empty string as "--".
func appendOpt(dst []byte, s string) []byte {
	if s == "" {
		return append(dst, "--"...)
	}
	return append(dst, s...)
}

// appendSec appends secondary edges as tab-separated label-parent pairs.
func appendSec(dst []byte, sec []tree.SecEdge, parent func(int) int) []byte {
	for _, s := range sec {
		dst = appendOpt(append(dst, '\t'), s.Label)
		dst = strconv.AppendInt(append(dst, '\t'), int64(parent(s.Parent)), 10)
	}
	return dst
}

// appendComment appends a trailing "%%" comment and ends the line.
func appendComment(dst []byte, comment string) []byte {
	if comment != "" {
		dst = append(dst, "\t%% "...)
		dst = append(dst, comment...)
	}
	return append(dst, '\n')
}

// checkExportValues checks that the fields of a line read back as written:
// no white space inside a field, no field that starts a comment; and that
// the comment holds no line break.
func checkExportValues(comment string, sec []tree.SecEdge, fields ...string) error {
	for _, f := range fields {
		if err := checkExportField(f, true); err != nil {
			return fmt.Errorf("field %q: %w", f, err)
		}
	}
	for _, s := range sec {
		if err := checkExportField(s.Label, true); err != nil {
			return fmt.Errorf("secondary edge label %q: %w", s.Label, err)
		}
	}
	if strings.ContainsAny(comment, "\r\n") {
		return errors.New("comment contains a line break")
	}
	return nil
}

// checkExportField checks one field value; empty is allowed only if
// emptyOK (the callers write empty optional fields as "--"). It refuses
// what checkText refuses.
func checkExportField(s string, emptyOK bool) error {
	switch {
	case s == "" && !emptyOK:
		return errors.New("empty")
	case strings.IndexFunc(s, isSpaceRune) >= 0:
		return errors.New("contains white space")
	case strings.HasPrefix(s, "%%"):
		return errors.New(`starts with "%%", which starts a comment`)
	}
	return checkText(s)
}

// checkWord rejects words that the reader would take for something else.
func checkWord(w string) error {
	switch {
	case w == "#BOS" || w == "#EOS":
		return errors.New("reads as a sentence boundary")
	case isNodeNum([]byte(w)):
		return errors.New("reads as a node number")
	}
	return nil
}
