package decode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/discspan/discspan/chart/tree"
)

// ScoreFile is the JSON hand-off between a scorer and the decoders: the
// words, the label names and the three score tensors as nested lists
// [x][y][label] over word indices (entries with x > y are ignored but must
// be present). Every list must be there (empty for an empty sentence);
// scores are numbers of magnitude at most MaxScore, never null.
type ScoreFile struct {
	Words  []string      `json:"words"`
	Labels []string      `json:"labels"`
	Cont   [][][]float64 `json:"cont"`
	Disc   [][][]float64 `json:"disc"`
	Gap    [][][]float64 `json:"gap"`
}

// ReadScoreFile parses a score file. Errors name the file, and for JSON
// syntax errors the line and column.
func ReadScoreFile(r io.Reader, name string) (*ScoreFile, *Scores, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF")) // a byte order mark, as the treebank readers take it
	// A null where a score belongs would be read as 0 (JavaScript's
	// JSON.stringify writes NaN as null).
	if at, ok := findNull(data); ok {
		line, col := position(data, int64(at))
		return nil, nil, fmt.Errorf("%s:%d:%d: null where a score or list belongs (a NaN written by JSON.stringify?)", name, line, col)
	}
	if err := checkListLengths(data, name); err != nil {
		return nil, nil, err
	}
	var f ScoreFile
	dec, err := decodeJSON(data, name, &f)
	if err != nil {
		return nil, nil, err
	}
	if trailing(dec, data) {
		return nil, nil, fmt.Errorf("%s: data after the score object", name)
	}
	for _, field := range []struct {
		name    string
		missing bool
	}{{"words", f.Words == nil}, {"labels", f.Labels == nil}, {"cont", f.Cont == nil}, {"disc", f.Disc == nil}, {"gap", f.Gap == nil}} {
		if field.missing {
			return nil, nil, fmt.Errorf("%s: no %q list (an empty sentence has \"words\": [] and empty lists)", name, field.name)
		}
	}
	s, err := f.Scores()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return &f, s, nil
}

// checkLabelName refuses a label name no tree can carry into a treebank
// file: invalid UTF-8, white space or control characters, or an empty part
// of a unary chain (X/Y, tree.ChainSep).
func checkLabelName(l string) error {
	if !utf8.ValidString(l) {
		return errors.New("invalid UTF-8")
	}
	if strings.ContainsFunc(l, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return errors.New("white space or a control character: a treebank file cannot hold it")
	}
	for _, part := range strings.Split(l, tree.ChainSep) {
		if part == "" {
			return fmt.Errorf("an empty part of a unary chain (parts are separated by %q)", tree.ChainSep)
		}
	}
	return nil
}

// checkWord refuses a word no tree can carry into a treebank file: empty,
// invalid UTF-8, or holding white space or a control character (refused
// here, before decoding, and not when the tree is written).
func checkWord(w string) error {
	switch {
	case w == "":
		return errors.New("empty")
	case !utf8.ValidString(w):
		return errors.New("invalid UTF-8")
	case strings.ContainsFunc(w, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }):
		return errors.New("white space or a control character: a treebank file cannot hold it")
	}
	return nil
}

// Scores converts the nested lists to a Scores value, checking every
// dimension first: nothing of the scores' size is allocated for a file
// whose lists do not have it.
func (f *ScoreFile) Scores() (*Scores, error) {
	n, L := len(f.Words), len(f.Labels)
	if n > 0 && L == 0 {
		return nil, errors.New(`"labels" is empty`)
	}
	seen := map[string]bool{}
	for a, l := range f.Labels {
		if l == "" {
			return nil, fmt.Errorf("label %d is empty", a)
		}
		if seen[l] {
			return nil, fmt.Errorf("label %q appears twice", l)
		}
		if err := checkLabelName(l); err != nil {
			return nil, fmt.Errorf("label %q: %w", l, err)
		}
		seen[l] = true
	}
	for i, w := range f.Words {
		if err := checkWord(w); err != nil {
			return nil, fmt.Errorf("word %d (%q): %w", i+1, w, err)
		}
	}
	tensors := []struct {
		name string
		in   [][][]float64
	}{{"cont", f.Cont}, {"disc", f.Disc}, {"gap", f.Gap}}
	for _, t := range tensors {
		if len(t.in) != n {
			return nil, fmt.Errorf("%q has %d rows, want one per word (%d)", t.name, len(t.in), n)
		}
		for x, row := range t.in {
			if len(row) != n {
				return nil, fmt.Errorf("%s[%d] has %d entries, want %d", t.name, x, len(row), n)
			}
			for y, cell := range row {
				if len(cell) != L {
					return nil, fmt.Errorf("%s[%d][%d] has %d scores, want one per label (%d)", t.name, x, y, len(cell), L)
				}
			}
		}
	}
	s := NewScores(n, L)
	for k, out := range [][]float32{s.Cont, s.Disc, s.Gap} {
		for x, row := range tensors[k].in {
			for y, cell := range row {
				for a, v := range cell {
					if y >= x && (v > MaxScore || v < -MaxScore) {
						return nil, fmt.Errorf("%s[%d][%d][%d] is %g, beyond ±%.3g (sums of such scores overflow)", tensors[k].name, x, y, a, v, float64(MaxScore))
					}
					out[s.Index(x, y, a)] = float32(v)
				}
			}
		}
	}
	return s, nil
}

// checkListLengths refuses, before the lists are decoded, a file with a
// list of "cont", "disc" or "gap" longer than its place allows: the
// tensor (one row per word), its rows (one entry per word) and the
// entries (one score per label). Decoding a list costs a slice header (24
// bytes) however short its text ("[]"), so a file of many short lists
// would take many times its size before Scores could refuse its shape.
// The words and labels are counted whatever their type (a label that is
// no string must not turn the check off: the decoding goes on after a
// type error); a file that is not JSON is left to the decoding, which
// says where (it reads nothing of a file it finds malformed).
func checkListLengths(data []byte, name string) error {
	var head struct {
		Words  json.RawMessage `json:"words"`
		Labels json.RawMessage `json:"labels"`
	}
	if json.Unmarshal(data, &head) != nil {
		return nil
	}
	var words, labels []json.RawMessage
	_ = json.Unmarshal(head.Words, &words) // not a list: no words, as Scores will say
	_ = json.Unmarshal(head.Labels, &labels)
	n, L := len(words), len(labels)
	// limits by depth: the object (1), a tensor (2), a row (3), an entry
	// (4). Deeper lists are type errors: the decoding skips them.
	limits := [...]int{2: n, 3: n, 4: L}
	what := [...]string{2: "a tensor with more rows than words", 3: "a row with more entries than words", 4: "an entry with more scores than labels"}
	type open struct {
		list    bool
		limited bool // a list of a tensor, or the tensor
		count   int
	}
	var stack []open
	inString, keyNext := false, false
	keyStart, key := 0, ""
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
				if keyStart > 0 {
					key, keyStart = string(data[keyStart:i]), 0
				}
			}
			continue
		}
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			continue
		}
		top := len(stack) - 1
		if c != ']' && c != '}' && c != ',' && top >= 0 && stack[top].list && stack[top].count == 0 {
			stack[top].count = 1 // a value begins the list
		}
		switch c {
		case '"':
			inString = true
			if keyNext {
				keyStart, keyNext = i+1, false
			}
		case '[', '{':
			o := open{list: c == '['}
			switch {
			case len(stack) == 1: // a field's value
				o.limited = o.list && (key == "cont" || key == "disc" || key == "gap")
			case top >= 0:
				o.limited = o.list && stack[top].limited
			}
			stack = append(stack, o)
			keyNext = c == '{' && len(stack) == 1
		case ']', '}':
			if top >= 0 {
				stack = stack[:top]
			}
		case ',':
			if top < 0 {
				continue
			}
			if !stack[top].list {
				keyNext = len(stack) == 1
				continue
			}
			stack[top].count++
			if d := len(stack); stack[top].limited && d < len(limits) && stack[top].count > limits[d] {
				line, col := position(data, int64(i))
				return fmt.Errorf("%s:%d:%d: %s (the file has %d words and %d labels)", name, line, col, what[d], n, L)
			}
		}
	}
	return nil
}

// trailing reports whether anything but white space follows the value
// dec decoded from data (dec.More misses a stray "}" or "]").
func trailing(dec *json.Decoder, data []byte) bool {
	return len(bytes.TrimSpace(data[dec.InputOffset():])) > 0
}

// findNull returns the offset of the first JSON null literal of data
// outside strings, if any.
func findNull(data []byte) (int, bool) {
	inString := false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case inString && c == '\\':
			i++ // the escaped byte
		case c == '"':
			inString = !inString
		case !inString && c == 'n' && bytes.HasPrefix(data[i:], []byte("null")):
			return i, true
		}
	}
	return 0, false
}

// position converts a byte offset to a 1-based line and column.
func position(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	line, col = 1, 1
	for _, b := range data[:offset] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// decodeJSON decodes the first JSON value of data (file name) into v,
// refusing unknown fields; syntax and type errors give the line and column.
// It returns the decoder for checks of what follows.
func decodeJSON(data []byte, name string, v any) (*json.Decoder, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			line, col := position(data, syn.Offset)
			return nil, fmt.Errorf("%s:%d:%d: %v", name, line, col, syn)
		case errors.As(err, &typ):
			line, col := position(data, typ.Offset)
			return nil, fmt.Errorf("%s:%d:%d: field %s: %v", name, line, col, typ.Field, typ)
		default:
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return dec, nil
}
