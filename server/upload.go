package server

import (
	"bytes"
	"errors"
	"fmt"
	"mime"
	"strings"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
)

// MinUploadSentences is the fewest sentences a training upload may hold:
// with fewer, the dev split (every DevEvery-th sentence) would be empty.
const MinUploadSentences = 10

// DevEvery is the dev split of an uploaded treebank: sentences 10, 20, 30,
// ... (1-based: index i with i%DevEvery == DevEvery-1) go to the dev set,
// the others to the training set. The split is deterministic.
const DevEvery = 10

// uploadError is a malformed upload: a message and, when the treebank
// reader named one, the line.
type uploadError struct {
	Line int
	Msg  string
}

func (e *uploadError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// detectFormat tells the treebank format of an upload: from the Content-Type
// when it names one (text/x-export, application/x-discbracket, ...: any
// type whose subtype contains "export" or "discbracket"), else from the
// first non-blank line: "#BOS", "%%" or another "#" line (#FORMAT) means
// export, "(" means discbracket.
func detectFormat(data []byte, contentType string) (treebank.Format, error) {
	if contentType != "" {
		if mt, _, err := mime.ParseMediaType(contentType); err == nil {
			switch {
			case strings.Contains(mt, "discbracket"):
				return treebank.Discbracket, nil
			case strings.Contains(mt, "export"):
				return treebank.Export, nil
			}
		}
	}
	rest := bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF")) // a byte order mark
	line := 0
	for len(rest) > 0 {
		line++
		var l []byte
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			l, rest = rest[:i], rest[i+1:]
		} else {
			l, rest = rest, nil
		}
		l = bytes.TrimSpace(l)
		if len(l) == 0 {
			continue
		}
		switch {
		case l[0] == '#' || bytes.HasPrefix(l, []byte("%%")):
			return treebank.Export, nil
		case l[0] == '(':
			return treebank.Discbracket, nil
		}
		return treebank.Unknown, &uploadError{Line: line, Msg: "cannot tell the treebank format: want export (#BOS ...) or discbracket ((ROOT ...)) "}
	}
	return treebank.Unknown, &uploadError{Msg: "empty treebank"}
}

// parseUpload reads an uploaded treebank. Any error of the reader makes the
// whole upload fail, with the first error's line and reason.
func parseUpload(data []byte, contentType string) ([]*tree.Tree, treebank.Format, error) {
	f, err := detectFormat(data, contentType)
	if err != nil {
		return nil, f, err
	}
	trees, err := treebank.ReadAll(bytes.NewReader(data), "upload", f)
	if err != nil {
		var e *treebank.Error
		if errors.As(err, &e) {
			return nil, f, &uploadError{Line: e.Line, Msg: fmt.Sprintf("%s: %s", f, e.Msg)}
		}
		return nil, f, &uploadError{Msg: err.Error()}
	}
	if len(trees) == 0 {
		return nil, f, &uploadError{Msg: "no sentences in the treebank"}
	}
	return trees, f, nil
}

// splitDev splits trees into training and dev sets (see DevEvery).
func splitDev(trees []*tree.Tree) (trainSet, dev []*tree.Tree) {
	for i, t := range trees {
		if i%DevEvery == DevEvery-1 {
			dev = append(dev, t)
		} else {
			trainSet = append(trainSet, t)
		}
	}
	return trainSet, dev
}
