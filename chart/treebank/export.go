package treebank

import (
	"bytes"
	"io"
	"slices"

	"github.com/discspan/discspan/chart/tree"
)

// Node numbers of export files.
const (
	minNodeNum = 500
	maxNodeNum = 999
	maxNodes   = maxNodeNum - minNodeNum + 1
)

// maxInterned bounds the table of shared tag, label, morphology and edge
// strings of one reader.
const maxInterned = 1 << 14

// exportReader reads the sentences of a NEGRA export file (format 3 or 4).
type exportReader struct {
	name    string
	lr      *lineReader
	version int               // 3 or 4 once known, else 0
	intern  map[string]string // shared copies of frequent field values
	fields  [][]byte          // scratch space for split

	// A #BOS line met before the #EOS of the previous sentence; the next
	// call starts with it.
	held     []byte
	heldLine int
	hasHeld  bool

	start int // the #BOS line of the last sentence returned

	// Scratch space for the sentence being read.
	toks  []tree.Token
	nodes []tree.Node
	lines sentenceLines
}

func newExportReader(r io.Reader, name string) *exportReader {
	return &exportReader{name: name, lr: newLineReader(r), intern: make(map[string]string)}
}

// startLine returns the #BOS line of the last sentence returned.
func (x *exportReader) startLine() int { return x.start }

// versionSeen returns the format version (3 or 4) seen so far, or 0.
func (x *exportReader) versionSeen() int { return x.version }

// next returns the next sentence, an *Error for a malformed one (the
// following call goes on after it), a read error, or io.EOF.
func (x *exportReader) next() (*tree.Tree, error) {
	for {
		var line []byte
		var lineNo int
		if x.hasHeld {
			line, lineNo, x.hasHeld = x.held, x.heldLine, false
		} else {
			var ok bool
			if line, ok = x.lr.next(); !ok {
				return nil, x.end()
			}
			lineNo = x.lr.line
		}
		// A line longer than MaxLineBytes is refused; a #BOS line still
		// starts a sentence (refused up to its #EOS) and a #BOT line a
		// table, so that their lines are not taken for stray ones.
		var long *Error
		if x.lr.tooLong() {
			long = x.lr.longLine(x.name)
			long.Line = lineNo
		}
		f, _, _ := x.split(line)
		if len(f) == 0 {
			if long != nil {
				return nil, long
			}
			continue // blank or comment line
		}
		switch string(f[0]) {
		case "#BOS":
			t, err := x.sentence(line, f, lineNo, long)
			return t, treeError(err)
		case "#BOT":
			if err := x.skipTable(lineNo); err != nil {
				return nil, err
			}
			if long != nil {
				return nil, long
			}
		case "#FORMAT":
			if long != nil {
				return nil, long
			}
			if len(f) < 2 || (string(f[1]) != "3" && string(f[1]) != "4") {
				return nil, errorf(x.name, lineNo, 0, "#FORMAT: want version 3 or 4")
			}
			x.version = int(f[1][0] - '0')
		default:
			if long != nil {
				return nil, long
			}
			return nil, errorf(x.name, lineNo, 0, "unexpected %q outside a sentence (want #BOS)", clip(f[0]))
		}
	}
}

// end returns the error that ends the input: io.EOF or the read error.
func (x *exportReader) end() error {
	if err := x.lr.ioErr(); err != nil {
		return err
	}
	return io.EOF
}

// skipTable skips a "#BOT name" ... "#EOT name" table of a NEGRA header.
func (x *exportReader) skipTable(lineNo int) error {
	for {
		line, ok := x.lr.next()
		if !ok {
			if err := x.lr.ioErr(); err != nil {
				return err
			}
			return errorf(x.name, lineNo, 0, "#BOT table without #EOT")
		}
		if f, _, _ := x.split(line); len(f) > 0 && string(f[0]) == "#EOT" {
			return nil
		}
	}
}

// split returns the white-space separated fields of line up to a field that
// starts with "%%", and the comment text after that "%%". The fields are
// valid until the next call.
func (x *exportReader) split(line []byte) (fields [][]byte, comment []byte, hasComment bool) {
	fs := x.fields[:0]
	for i := 0; i < len(line); {
		if isSpace(line[i]) {
			i++
			continue
		}
		j := i
		for j < len(line) && !isSpace(line[j]) {
			j++
		}
		if j-i >= 2 && line[i] == '%' && line[i+1] == '%' {
			comment, hasComment = bytes.TrimFunc(line[i+2:], isSpaceRune), true
			break
		}
		fs = append(fs, line[i:j])
		i = j
	}
	x.fields = fs
	return fs, comment, hasComment
}

func isSpaceRune(r rune) bool { return r < 0x80 && isSpace(byte(r)) }

// str returns b as a string shared with earlier equal values.
func (x *exportReader) str(b []byte) string {
	if s, ok := x.intern[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(x.intern) < maxInterned {
		x.intern[s] = s
	}
	return s
}

// opt returns an optional field: "--" stands for the empty string.
func (x *exportReader) opt(b []byte) string {
	if len(b) == 2 && b[0] == '-' && b[1] == '-' {
		return ""
	}
	return x.str(b)
}

// sentence reads the sentence that starts with the #BOS line (fields f) up to
// its #EOS. After an error it skips to the #EOS, so that the next call goes
// on with the next sentence. bosErr, if not nil, is an error of the #BOS
// line itself (it is too long): the sentence is then refused with it.
func (x *exportReader) sentence(bos []byte, f [][]byte, bosLine int, bosErr *Error) (*tree.Tree, error) {
	sentErr := bosErr
	fail := func(e *Error) {
		if sentErr == nil {
			sentErr = e
		}
	}
	// Tokens and nodes are collected in scratch space, then copied.
	t := &tree.Tree{Tokens: x.toks[:0], Nodes: x.nodes[:0]}
	defer func() { x.toks, x.nodes = t.Tokens[:0], t.Nodes[:0] }()
	if len(f) < 2 {
		fail(errorf(x.name, bosLine, 0, "#BOS without a sentence id"))
	} else if err := checkLineBytes(x.name, bosLine, bos); err != nil {
		fail(err)
	} else {
		t.ID = string(f[1])
		t.BOSExtra = bosExtra(bos)
	}
	s := &x.lines
	s.reset()
	for {
		line, ok := x.lr.next()
		if !ok {
			if err := x.lr.ioErr(); err != nil {
				return nil, err
			}
			if sentErr != nil {
				return nil, sentErr
			}
			return nil, errorf(x.name, bosLine, 0, "sentence %s has no #EOS", t.ID)
		}
		lineNo := x.lr.line
		f, comment, _ := x.split(line)
		if len(f) == 0 && !x.lr.tooLong() {
			continue
		}
		if len(f) > 0 && string(f[0]) == "#BOS" {
			// Held with its length: the next call reads it again.
			x.held = append(x.held[:0], line...)
			x.heldLine, x.hasHeld = lineNo, true
			if sentErr != nil {
				return nil, sentErr
			}
			return nil, errorf(x.name, lineNo, 0, "#BOS before the #EOS of sentence %s (line %d)", t.ID, bosLine)
		}
		if x.lr.tooLong() {
			fail(x.lr.longLine(x.name))
		}
		if len(f) == 0 {
			continue
		}
		switch string(f[0]) {
		case "#EOS":
			if sentErr != nil {
				return nil, sentErr
			}
			if len(f) > 1 && string(f[1]) != t.ID {
				return nil, errorf(x.name, lineNo, 0, "#EOS %s does not match #BOS %s (line %d)", clip(f[1]), t.ID, bosLine)
			}
			if err := x.finish(t, s, bosLine); err != nil {
				return nil, err
			}
			x.start = bosLine
			return &tree.Tree{ID: t.ID, BOSExtra: t.BOSExtra, Tokens: exact(t.Tokens), Nodes: exact(t.Nodes)}, nil
		}
		if sentErr != nil {
			continue
		}
		if err := checkLineBytes(x.name, lineNo, line); err != nil {
			fail(err)
			continue
		}
		switch {
		case isNodeNum(f[0]):
			fail(x.nodeLine(t, s, f, comment, lineNo))
		case len(t.Tokens) >= MaxTokens:
			fail(errorf(x.name, lineNo, 0, "sentence %s: %s", t.ID, limitText("tokens", MaxTokens)))
		default:
			fail(x.tokenLine(t, s, f, comment, lineNo))
		}
	}
}

// sentenceLines records where the lines of a sentence were, for messages, and
// which node has which number.
type sentenceLines struct {
	tokLines  []int
	nodeLines []int
	numIdx    [maxNodes]int16 // 1 + index into Nodes of node number 500+i; 0 if none
	secs      int             // secondary edges
}

func (s *sentenceLines) reset() {
	s.tokLines, s.nodeLines, s.secs = s.tokLines[:0], s.nodeLines[:0], 0
	clear(s.numIdx[:])
}

// countEdges counts the edges of a token or node line with sec secondary
// edges, before it is added to t: its own edge and the secondary ones (see
// MaxBrackets). It refuses the line that takes the sentence past the limit.
func (x *exportReader) countEdges(t *tree.Tree, s *sentenceLines, sec, lineNo int) *Error {
	s.secs += sec
	if len(t.Tokens)+len(t.Nodes)+1+s.secs > MaxBrackets {
		return errorf(x.name, lineNo, 0, "sentence %s: %s", t.ID, exportEdgesLimitText())
	}
	return nil
}

// exact returns a copy of s with no spare capacity; nil if s is empty.
func exact[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return slices.Clone(s)
}

// bosExtra returns what follows the id on a #BOS line, without surrounding
// white space.
func bosExtra(line []byte) string {
	i := len("#BOS")
	for i < len(line) && isSpace(line[i]) {
		i++
	}
	for i < len(line) && !isSpace(line[i]) {
		i++
	}
	return string(bytes.TrimFunc(line[i:], isSpaceRune))
}

// isNodeNum reports whether a first field is a node number "#NNN".
func isNodeNum(b []byte) bool {
	if len(b) < 2 || b[0] != '#' {
		return false
	}
	for _, c := range b[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parseNum parses a non-negative decimal number of at most 9 digits.
func parseNum(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// parseParent parses a parent field: 0 (the virtual root) or 500..999. The
// number is resolved to a node index by finish.
func parseParent(b []byte) (int, bool) {
	n, ok := parseNum(b)
	if !ok || (n != 0 && (n < minNodeNum || n > maxNodeNum)) {
		return 0, false
	}
	return n, true
}

// checkFields checks the number of fields of a token or node line (n fields
// before any comment) and settles the format version if it is not known.
func (x *exportReader) checkFields(n int, what string, lineNo int) *Error {
	if x.version == 0 {
		switch {
		case n >= 6 && n%2 == 0:
			x.version = 4
		case n >= 5:
			x.version = 3
		default:
			return errorf(x.name, lineNo, 0, "%s line has %d fields, want at least 5 (export 3) or 6 (export 4)", what, n)
		}
		return nil
	}
	base := x.version + 2
	if n < base || (n-base)%2 != 0 {
		cols := "word tag morph edge parent"
		if what == "node" {
			cols = "#num label morph edge parent"
		}
		if x.version == 4 {
			cols = "word lemma tag morph edge parent"
			if what == "node" {
				cols = "#num lemma label morph edge parent"
			}
		}
		return errorf(x.name, lineNo, 0, "%s line has %d fields; export %d wants %s, then secondary edges as label-parent pairs", what, n, x.version, cols)
	}
	return nil
}

// secEdges parses secondary edges (label, parent number) from pairs of fields.
func (x *exportReader) secEdges(f [][]byte, lineNo int) ([]tree.SecEdge, *Error) {
	if len(f) == 0 {
		return nil, nil
	}
	sec := make([]tree.SecEdge, 0, len(f)/2)
	for i := 0; i+1 < len(f); i += 2 {
		p, ok := parseParent(f[i+1])
		if !ok {
			return nil, errorf(x.name, lineNo, 0, "secondary edge parent %q is not 0 or a node number 500..999", clip(f[i+1]))
		}
		sec = append(sec, tree.SecEdge{Label: x.opt(f[i]), Parent: p})
	}
	return sec, nil
}

// tokenLine parses "word [lemma] tag morph edge parent [label parent]...".
func (x *exportReader) tokenLine(t *tree.Tree, s *sentenceLines, f [][]byte, comment []byte, lineNo int) *Error {
	if err := x.checkFields(len(f), "token", lineNo); err != nil {
		return err
	}
	tok := tree.Token{Word: string(f[0]), Comment: string(comment)}
	i := 1
	if x.version == 4 {
		tok.Lemma = x.optWord(f[1])
		i = 2
	}
	tok.Tag, tok.Morph, tok.Edge = x.opt(f[i]), x.opt(f[i+1]), x.opt(f[i+2])
	p, ok := parseParent(f[i+3])
	if !ok {
		return errorf(x.name, lineNo, 0, "token %q: parent %q is not 0 or a node number 500..999", clip(f[0]), clip(f[i+3]))
	}
	tok.Parent = p
	var err *Error
	if tok.Sec, err = x.secEdges(f[i+4:], lineNo); err != nil {
		return err
	}
	if err := x.countEdges(t, s, len(tok.Sec), lineNo); err != nil {
		return err
	}
	t.Tokens = append(t.Tokens, tok)
	s.tokLines = append(s.tokLines, lineNo)
	return nil
}

// optWord is opt for open-class fields (lemmas), which are not shared.
func (x *exportReader) optWord(b []byte) string {
	if len(b) == 2 && b[0] == '-' && b[1] == '-' {
		return ""
	}
	return string(b)
}

// nodeLine parses "#num [lemma] label morph edge parent [label parent]...".
func (x *exportReader) nodeLine(t *tree.Tree, s *sentenceLines, f [][]byte, comment []byte, lineNo int) *Error {
	if err := x.checkFields(len(f), "node", lineNo); err != nil {
		return err
	}
	num, ok := parseNum(f[0][1:])
	if !ok || num < minNodeNum || num > maxNodeNum {
		return errorf(x.name, lineNo, 0, "node number %s out of range #%d..#%d", clip(f[0]), minNodeNum, maxNodeNum)
	}
	if k := s.numIdx[num-minNodeNum]; k != 0 {
		return errorf(x.name, lineNo, 0, "duplicate node number #%d (first on line %d)", num, s.nodeLines[k-1])
	}
	nd := tree.Node{Num: num, Comment: string(comment)}
	i := 1
	if x.version == 4 {
		nd.Lemma = x.optWord(f[1])
		i = 2
	}
	nd.Label, nd.Morph, nd.Edge = x.opt(f[i]), x.opt(f[i+1]), x.opt(f[i+2])
	p, ok := parseParent(f[i+3])
	if !ok {
		return errorf(x.name, lineNo, 0, "node #%d: parent %q is not 0 or a node number 500..999", num, clip(f[i+3]))
	}
	nd.Parent = p
	var err *Error
	if nd.Sec, err = x.secEdges(f[i+4:], lineNo); err != nil {
		return err
	}
	if err := x.countEdges(t, s, len(nd.Sec), lineNo); err != nil {
		return err
	}
	t.Nodes = append(t.Nodes, nd)
	s.nodeLines = append(s.nodeLines, lineNo)
	s.numIdx[num-minNodeNum] = int16(len(t.Nodes))
	return nil
}

// finish turns the parent numbers of a complete sentence into node indices
// and checks that the parent links form a tree.
func (x *exportReader) finish(t *tree.Tree, s *sentenceLines, bosLine int) *Error {
	resolve := func(num int) (int, bool) {
		if num == 0 {
			return tree.Root, true
		}
		k := s.numIdx[num-minNodeNum]
		return int(k) - 1, k != 0
	}
	for i := range t.Tokens {
		tok := &t.Tokens[i]
		var ok bool
		num := tok.Parent
		if tok.Parent, ok = resolve(num); !ok {
			return errorf(x.name, s.tokLines[i], 0, "token %q: parent #%d is not a node of sentence %s", clip([]byte(tok.Word)), num, t.ID)
		}
		for j := range tok.Sec {
			num := tok.Sec[j].Parent
			if tok.Sec[j].Parent, ok = resolve(num); !ok {
				return errorf(x.name, s.tokLines[i], 0, "token %q: secondary parent #%d is not a node of sentence %s", clip([]byte(tok.Word)), num, t.ID)
			}
		}
	}
	for i := range t.Nodes {
		nd := &t.Nodes[i]
		var ok bool
		num := nd.Parent
		if nd.Parent, ok = resolve(num); !ok {
			return errorf(x.name, s.nodeLines[i], 0, "node #%d: parent #%d is not a node of sentence %s", nd.Num, num, t.ID)
		}
		for j := range nd.Sec {
			num := nd.Sec[j].Parent
			if nd.Sec[j].Parent, ok = resolve(num); !ok {
				return errorf(x.name, s.nodeLines[i], 0, "node #%d: secondary parent #%d is not a node of sentence %s", nd.Num, num, t.ID)
			}
		}
	}
	// A sentence has at most 500 nodes, so following the parent links of
	// every node is cheap; it finds the line of a node on a cycle.
	for i := range t.Nodes {
		p := t.Nodes[i].Parent
		for steps := 0; p != tree.Root; steps++ {
			if steps > len(t.Nodes) { // p is on the cycle
				return errorf(x.name, s.nodeLines[p], 0, "node #%d: parent links form a cycle", t.Nodes[p].Num)
			}
			p = t.Nodes[p].Parent
		}
	}
	if err := t.Validate(); err != nil {
		return errorf(x.name, bosLine, 0, "sentence %s: %v", t.ID, err)
	}
	return nil
}

// clip returns b as a string for a message, shortened if it is long.
func clip(b []byte) string {
	const limit = 40
	if len(b) > limit {
		return string(b[:limit]) + "..."
	}
	return string(b)
}
