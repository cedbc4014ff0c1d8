package components

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/ui/app"
)

// TestAccessibleNames renders every tab and section, with a sentence
// parsed, a treebank open, an exercise chosen and a corpus annotated, and
// checks what a screen reader needs (WCAG 4.1.2, 1.3.1): every button has
// a name (an aria-label, or text with a letter or digit: "◀" or "−" alone
// say nothing), and every field a label (aria-label, aria-labelledby, a
// <label> around it or one for its id).
func TestAccessibleNames(t *testing.T) {
	a, _, env := loaded(t, true)
	var pages []string
	page := func(what string, setup func()) {
		var html string
		env.Do(func() {
			setup()
			html = render(t, &Root{App: a})
		})
		pages = append(pages, what+"\n"+html)
	}
	page("sentence tab", func() { a.SetTab(app.TabParse) })
	for _, s := range []string{app.TeachSectionStepper, app.TeachSectionRules, app.TeachSectionVariants, app.TeachSectionGallery, app.TeachSectionExercises} {
		page("teaching: "+s, func() {
			a.SetTab(app.TabTeach)
			a.TeachSetSection(s)
			if s == app.TeachSectionExercises && len(a.Teach.Exercise.List) > 0 {
				a.TeachExerciseChoose(a.Teach.Exercise.List[0].ID)
			}
		})
	}
	tr, err := tree.FromConstituents([]string{"de", "man", "slaapt"}, []string{"LID", "N", "WW"},
		[]tree.Labelled{{Label: "np", Blocks: []tree.Span{{Start: 0, End: 2}}}})
	if err != nil {
		t.Fatal(err)
	}
	tr.ID = "s1"
	page("annotation", func() {
		a.SetTab(app.TabAnnotate)
		a.AnnSetCorpus(annotate.NewCorpus("test.export", []*tree.Tree{tr}, annotate.PreAnnotated), nil, 0)
		a.AnnKey("?", false, false)
	})
	env.Do(func() {
		a.SetTab(app.TabTreebank)
		a.OpenBank("dev.discbracket", []byte("(ROOT (smain (N 0=Hij) (N 1=slaapt)) (LET 2=.))\n"))
	})
	env.Wait(t, "the treebank's parse", 30*time.Second, func() bool { return a.Job == nil && a.Bank.Parsed == 1 })
	page("treebank", func() {})

	// The check itself finds what it should.
	if got := unnamedControls(`<button title="next">▶</button><button aria-label="next">▶</button><button>next <b>▶</b></button>` +
		`<input id="a"><label>x <input id="b"></label><label for="c">x</label><select id="c"></select><textarea aria-label="t"></textarea>`); len(got) != 2 {
		t.Errorf("the check found %d problems in a sample of 2: %q", len(got), got)
	}
	controls := 0
	for _, p := range pages {
		controls += strings.Count(p, "<button") + strings.Count(p, "<input") + strings.Count(p, "<select") + strings.Count(p, "<textarea")
	}
	if controls < 100 {
		t.Errorf("only %d controls rendered in all: the pages are not what the test means", controls)
	}
	for _, p := range pages {
		what, html, _ := strings.Cut(p, "\n")
		for _, problem := range unnamedControls(html) {
			t.Errorf("%s: %s", what, problem)
		}
	}
}

var (
	tagRE       = regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>`)
	attrRE      = regexp.MustCompile(`([a-zA-Z:-]+)(?:="([^"]*)")?`)
	nameCharsRE = regexp.MustCompile(`[\p{L}\p{N}]`)
)

// unnamedControls lists the buttons without a name and the fields without
// a label of html.
func unnamedControls(html string) []string {
	labelFor := map[string]bool{}
	for _, m := range tagRE.FindAllStringSubmatch(html, -1) {
		if strings.EqualFold(m[2], "label") {
			if f := attrsOf(m[3])["for"]; f != "" {
				labelFor[f] = true
			}
		}
	}
	var problems []string
	labels := 0 // <label> elements open
	var button *strings.Builder
	var buttonAttrs map[string]string
	last := 0
	for _, loc := range tagRE.FindAllStringSubmatchIndex(html, -1) {
		if button != nil {
			button.WriteString(html[last:loc[0]])
		}
		last = loc[1]
		closing := loc[2] != loc[3]
		name := strings.ToLower(html[loc[4]:loc[5]])
		attrs := attrsOf(html[loc[6]:loc[7]])
		switch {
		case name == "label" && !closing:
			labels++
		case name == "label":
			labels--
		case name == "button" && !closing:
			button, buttonAttrs = &strings.Builder{}, attrs
		case name == "button" && button != nil:
			if buttonAttrs["aria-label"] == "" && !nameCharsRE.MatchString(button.String()) {
				problems = append(problems, "a button without a name: "+html[max(0, loc[0]-120):loc[1]])
			}
			button = nil
		case !closing && (name == "input" || name == "select" || name == "textarea"):
			if attrs["type"] == "hidden" || attrs["aria-label"] != "" || attrs["aria-labelledby"] != "" || labels > 0 || labelFor[attrs["id"]] {
				continue
			}
			problems = append(problems, "a field without a label: "+html[loc[0]:loc[1]])
		}
	}
	return problems
}

// attrsOf parses the attributes of a tag.
func attrsOf(s string) map[string]string {
	out := map[string]string{}
	for _, m := range attrRE.FindAllStringSubmatch(s, -1) {
		out[strings.ToLower(m[1])] = m[2]
	}
	return out
}

// TestAnnounce: the page's live region says the model is ready, then each
// parse's result.
func TestAnnounce(t *testing.T) {
	a, _, env := loaded(t, false)
	var html string
	env.Do(func() { html = render(t, &Root{App: a}) })
	contains(t, html, `<p id="announce" class="sr-only" role="status">Model default ready.</p>`)
	a2, _, env2 := loaded(t, true)
	env2.Do(func() { html = render(t, &Root{App: a2}) })
	re := regexp.MustCompile(`<p id="announce" class="sr-only" role="status">Parse \d+, [^<]+: \d+ constituents?, \d+ discontinuous\.</p>`)
	if !re.MatchString(html) {
		i := strings.Index(html, `id="announce"`)
		t.Errorf("no parse announced: %s", html[max(0, i-10):min(len(html), i+160)])
	}
}
