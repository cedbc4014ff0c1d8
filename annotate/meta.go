package annotate

import (
	"net/url"
	"strings"

	"github.com/discspan/discspan/chart/tree"
)

// metaPrefix begins the field of a sentence's comment (Tree.BOSExtra: the
// rest of export's #BOS line, the text after a discbracket tree's TAB,
// TIGER-XML's comment attribute) that carries its status and note through
// an export and back in: "%% discspan:note=zie+p.+3&status=checked". The
// "%%" makes it a comment for other tools reading export's #BOS line (an
// editor, a date and an origin may come before it); it is written only
// where the comment has none yet. The field is written only for a
// sentence checked, pre-annotated or with a note, so that a corpus
// exported as it was imported gives back the imported file.
const (
	metaPrefix    = "discspan:"
	commentMarker = "%%"
)

// withMeta returns a copy of t whose comment carries status and note (in
// place of a field an earlier export left), or t itself when there is
// nothing to carry.
func withMeta(t *tree.Tree, status Status, note string) *tree.Tree {
	rest := t.BOSExtra
	if r, _, _, ok := splitMeta(rest); ok {
		rest = r
	}
	extra := rest
	if status != Untouched || note != "" {
		v := url.Values{"status": {status.String()}}
		if note != "" {
			v.Set("note", note)
		}
		field := metaPrefix + v.Encode()
		if !strings.Contains(rest, commentMarker) {
			field = commentMarker + " " + field
		}
		extra = strings.TrimSpace(rest + " " + field)
	}
	if extra == t.BOSExtra {
		return t
	}
	out := *t // the slices are shared: the writers only read them
	out.BOSExtra = extra
	return &out
}

// splitMeta finds the field that withMeta writes in a comment: it returns
// the comment without it, with the status and note it carries; ok is
// false when the comment holds no such field, or one that does not read
// (which then stays part of the comment).
func splitMeta(extra string) (rest string, status Status, note string, ok bool) {
	fields := strings.Fields(extra)
	for i := len(fields) - 1; i >= 0; i-- {
		enc, found := strings.CutPrefix(fields[i], metaPrefix)
		if !found {
			continue
		}
		v, err := url.ParseQuery(enc)
		if err != nil {
			return extra, 0, "", false
		}
		st, err := ParseStatus(v.Get("status"))
		if err != nil {
			return extra, 0, "", false
		}
		// The comment keeps its own spacing before and after the field,
		// less the "%%" withMeta put before it.
		at := strings.LastIndex(extra, fields[i])
		before := strings.TrimRight(extra[:at], " \t")
		if i > 0 && fields[i-1] == commentMarker && strings.Count(before, commentMarker) == 1 {
			before = strings.TrimRight(strings.TrimSuffix(before, commentMarker), " \t")
		}
		rest = strings.TrimSpace(before + " " + strings.TrimLeft(extra[at+len(fields[i]):], " \t"))
		return rest, st, v.Get("note"), true
	}
	return extra, 0, "", false
}
