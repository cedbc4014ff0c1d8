package eval

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Params is an evaluation parameter set in the sense of EVALB / disco-dop
// parameter (.prm) files. The zero value evaluates labelled brackets with no
// deletions, no equivalences and no length cutoff; use ProperPrm for the
// field's standard setting or ParseParams to read another parameter file.
//
// A Params value holds maps; treat them as read-only once evaluation starts
// (ProperPrm and ParseParams return fresh maps on every call).
type Params struct {
	// Name identifies the parameter set in reports, e.g. "proper.prm".
	Name string
	// CutoffLen is CUTOFF_LEN: the second summary column covers sentences of
	// at most this many words (counted as described in the package
	// documentation). A value <= 0 disables the column.
	CutoffLen int
	// Labeled is LABELED: when false brackets are compared without labels.
	Labeled bool
	// DiscOnly is DISC_ONLY: when true the main precision, recall, F1,
	// exact match and sentence count consider discontinuous brackets only
	// (disco-dop's --disconly). The Disc* fields are computed either way.
	DiscOnly bool
	// DeleteLabel is DELETE_LABEL. A token whose gold tag is in the set is
	// removed with its word; a phrasal node whose label is in the set is
	// replaced by its children.
	DeleteLabel map[string]bool
	// DeleteLabelForLength is DELETE_LABEL_FOR_LENGTH: gold tags not counted
	// in the sentence length used for the cutoff.
	DeleteLabelForLength map[string]bool
	// DeleteWord is DELETE_WORD: tokens with these words are removed
	// whatever their tag.
	DeleteWord map[string]bool
	// EqLabel is EQ_LABEL as a map from every member of an equivalence class
	// to the class representative (labels absent from the map stand for
	// themselves).
	EqLabel map[string]string
	// EqWord is EQ_WORD in the same representation as EqLabel.
	EqWord map[string]string
	// DeleteRootPreterms is DELETE_ROOT_PRETERMS: also remove tokens that
	// the gold tree attaches directly to the root.
	DeleteRootPreterms bool
	// KeepFunctionTags disables the cutting of labels and tags at the first
	// '-' or '=' (disco-dop eval's default --functions=remove); leave it
	// false for disco-dop-compatible scores.
	KeepFunctionTags bool
}

// Parameter lists of disco-dop's proper.prm.
var (
	properDeleteLabels = []string{
		"NOPARSE",
		"TOP", "ROOT", "VROOT",
		"$,", "$(", "$[", "$.", // NEGRA / TIGER
		"PUNCT", "punct", "LET[]", "LET()", "LET", "let[]", "let()", "let", // Alpino
		",", ":", "``", "''", ".", "-NONE-", // PTB
	}
	properDeleteWords = []string{
		".", ",", ":", ";", "'", "`", "\"", "``", "''", "-", "(", ")", "/",
		"&", "$", "!", "!!!", "?", "??", "???", "..", "...", "«", "»",
	}
	properEqLabel = [][2]string{{"ADVP", "PRT"}}
	properEqWord  = [][2]string{{"-LRB-", "("}, {"-RRB-", ")"}}
)

// ProperPrm returns the parameters of disco-dop's proper.prm: CUTOFF_LEN
// 40, LABELED 1, DISC_ONLY 0, all punctuation deleted by tag (NEGRA/TIGER,
// Alpino, PTB) and by word, root labels deleted, EQ_LABEL ADVP PRT,
// EQ_WORD -LRB- ( and -RRB- ), no DELETE_LABEL_FOR_LENGTH.
func ProperPrm() Params {
	p := Params{
		Name:                 "proper.prm",
		CutoffLen:            40,
		Labeled:              true,
		DeleteLabel:          set(properDeleteLabels),
		DeleteLabelForLength: map[string]bool{},
		DeleteWord:           set(properDeleteWords),
	}
	p.EqLabel = closure(properEqLabel)
	p.EqWord = closure(properEqWord)
	return p
}

func set(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// closure turns undirected equivalence pairs into a map from every member of
// a class to its representative, the lexically smallest member.
func closure(pairs [][2]string) map[string]string {
	parent := map[string]string{}
	var find func(string) string
	find = func(x string) string {
		p, ok := parent[x]
		if !ok || p == x {
			parent[x] = x
			return x
		}
		r := find(p)
		parent[x] = r
		return r
	}
	for _, pr := range pairs {
		a, b := find(pr[0]), find(pr[1])
		if a == b {
			continue
		}
		if b < a {
			a, b = b, a
		}
		parent[b] = a // the smaller root represents the class
	}
	m := make(map[string]string, len(parent))
	for x := range parent {
		m[x] = find(x)
	}
	return m
}

// ParseParams reads an EVALB-style parameter file as disco-dop does: one
// "KEY value" per line, '#' starts a comment line. DEBUG, MAX_ERROR, LA, TED
// and DEP are accepted and ignored; DELETE_LABEL, DELETE_LABEL_FOR_LENGTH and
// DELETE_WORD accumulate; EQ_LABEL and EQ_WORD take two values and form
// equivalence classes; the single-valued keys may appear only once. Unknown
// keys are an error. Defaults (for keys absent from the file) follow
// disco-dop: CUTOFF_LEN 40, LABELED 1.
func ParseParams(r io.Reader, name string) (Params, error) {
	p := Params{
		Name:                 name,
		CutoffLen:            40,
		Labeled:              true,
		DeleteLabel:          map[string]bool{},
		DeleteLabelForLength: map[string]bool{},
		DeleteWord:           map[string]bool{},
	}
	var eqLabel, eqWord [][2]string
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	lineno := 0
	for sc.Scan() {
		lineno++
		text := sc.Text()
		if lineno == 1 {
			text = strings.TrimPrefix(text, "\uFEFF") // a byte order mark, as the treebank readers take it
		}
		line := strings.TrimSpace(text)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val := line, ""
		if i := strings.IndexAny(line, " \t"); i >= 0 {
			key, val = line[:i], strings.TrimSpace(line[i:])
		}
		if val == "" {
			return p, fmt.Errorf("%s:%d: %s needs a value", name, lineno, key)
		}
		switch key {
		case "DEBUG", "MAX_ERROR", "CUTOFF_LEN", "LABELED", "DISC_ONLY", "LA", "TED", "DEP", "DELETE_ROOT_PRETERMS":
			if seen[key] {
				return p, fmt.Errorf("%s:%d: cannot declare %s twice", name, lineno, key)
			}
			seen[key] = true
			n, err := strconv.Atoi(val)
			if err != nil {
				return p, fmt.Errorf("%s:%d: %s: %v", name, lineno, key, err)
			}
			switch key {
			case "CUTOFF_LEN":
				p.CutoffLen = n
			case "LABELED":
				p.Labeled = n != 0
			case "DISC_ONLY":
				p.DiscOnly = n != 0
			case "DELETE_ROOT_PRETERMS":
				p.DeleteRootPreterms = n != 0
			}
		case "DELETE_LABEL":
			p.DeleteLabel[val] = true
		case "DELETE_LABEL_FOR_LENGTH":
			p.DeleteLabelForLength[val] = true
		case "DELETE_WORD":
			p.DeleteWord[val] = true
		case "EQ_LABEL", "EQ_WORD":
			f := strings.Fields(val)
			if len(f) != 2 {
				return p, fmt.Errorf("%s:%d: %s requires two values", name, lineno, key)
			}
			if key == "EQ_LABEL" {
				eqLabel = append(eqLabel, [2]string{f[0], f[1]})
			} else {
				eqWord = append(eqWord, [2]string{f[0], f[1]})
			}
		default:
			return p, fmt.Errorf("%s:%d: unrecognized parameter key: %s", name, lineno, key)
		}
	}
	if err := sc.Err(); err != nil {
		return p, fmt.Errorf("%s: %v", name, err)
	}
	p.EqLabel = closure(eqLabel)
	p.EqWord = closure(eqWord)
	return p, nil
}

// String lists the parameters in parameter-file syntax (sorted), for logs.
func (p Params) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\nCUTOFF_LEN %d\nLABELED %d\nDISC_ONLY %d\nDELETE_ROOT_PRETERMS %d\n",
		p.Name, p.CutoffLen, b2i(p.Labeled), b2i(p.DiscOnly), b2i(p.DeleteRootPreterms))
	for _, kv := range []struct {
		key string
		m   map[string]bool
	}{{"DELETE_LABEL", p.DeleteLabel}, {"DELETE_LABEL_FOR_LENGTH", p.DeleteLabelForLength}, {"DELETE_WORD", p.DeleteWord}} {
		keys := make([]string, 0, len(kv.m))
		for k, v := range kv.m {
			if v {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "%s %s\n", kv.key, k)
		}
	}
	for _, kv := range []struct {
		key string
		m   map[string]string
	}{{"EQ_LABEL", p.EqLabel}, {"EQ_WORD", p.EqWord}} {
		keys := make([]string, 0, len(kv.m))
		for k, rep := range kv.m {
			if k != rep {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "%s %s %s\n", kv.key, kv.m[k], k)
		}
	}
	return b.String()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
