package treebank

import (
	"bytes"
	"encoding/xml"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// boundaries returns, for each byte of in, whether boundedXML starts a new
// token count at it; stepwise leaves out the plain fast path.
func boundaries(in []byte, stepwise bool) []bool {
	b := &boundedXML{}
	at := make([]bool, len(in))
	for i := 0; i < len(in); {
		if k := b.plain(in[i:]); k > 0 && !stepwise {
			i += k
			continue
		}
		at[i] = b.step(in[i])
		i++
	}
	return at
}

// checkBoundaries reports how boundedXML's view of in differs from
// encoding/xml's, up to the decoder's first error: a markup token
// [s, e) must begin at its '<' and end at its '>' with no boundary
// between, a text token must hold none and be followed by one.
func checkBoundaries(in []byte) string {
	at := boundaries(in, false)
	if step := boundaries(in, true); !slices.Equal(at, step) {
		return "the plain fast path and stepping byte by byte differ"
	}
	d := xml.NewDecoder(bytes.NewReader(in))
	d.Strict = true
	start := 0
	for {
		tok, err := d.RawToken()
		if err != nil {
			return ""
		}
		end := int(d.InputOffset())
		if end == start {
			continue
		}
		_, text := tok.(xml.CharData)
		text = text && in[start] != '<' // CDATA is markup
		lo, hi := start+1, end-1        // inside a markup token
		if text {
			lo, hi = start, end
		}
		for i := lo; i < hi; i++ {
			if at[i] {
				return "a boundary inside the decoder's token " + strings.ReplaceAll(string(in[start:end]), "\n", `\n`)
			}
		}
		switch {
		case !text && (!at[start] || !at[end-1]):
			return "no boundary at the edges of the decoder's token " + string(in[start:end])
		case text && end < len(in) && !at[end]:
			return "no boundary after the decoder's text " + string(in[start:end])
		}
		start = end
	}
}

// TestBoundedXMLFollowsDecoder: on random markup (tags with quoted '>',
// comments, CDATA, processing instructions, declarations with nested
// markup and comments holding quotes and "--"), boundedXML counts a new
// token exactly where encoding/xml's tokens begin and end, so the run it
// bounds is the size of what the decoder holds whole; and its fast path
// agrees with stepping byte by byte.
func TestBoundedXMLFollowsDecoder(t *testing.T) {
	pieces := []string{"<", ">", "!", "-", "--", "[", "]", "?", "'", `"`, "a", " ", "\n", "/", "=",
		"<!--", "-->", "<!DOCTYPE x ", "<![CDATA[", "]]>", "<?p ", "?>", "<a ", "b=", `"x>y"`, "'q'", "</a>", "<a/>", "<a>", "<!"}
	rng := rand.New(rand.NewSource(1))
	for n := range 100000 {
		var b strings.Builder
		for range 1 + rng.Intn(30) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		b.WriteString("<z/>")
		if msg := checkBoundaries([]byte(b.String())); msg != "" {
			t.Fatalf("input %d %q: %s", n, b.String(), msg)
		}
	}
}

// FuzzBoundedXML checks the same on fuzzed input.
func FuzzBoundedXML(f *testing.F) {
	f.Add(tigerSample)
	f.Add(`<!DOCTYPE c [ <!-- a -- b's --> <!ELEMENT c ANY> ]><c a="1>2"><!-- x --><![CDATA[ <]] ]]><?p ?></c>`)
	f.Fuzz(func(t *testing.T, in string) {
		if msg := checkBoundaries([]byte(in)); msg != "" {
			t.Fatalf("%q: %s", in, msg)
		}
	})
}
