package components

import (
	"bytes"
	"fmt"
	htmlpkg "html"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/discspan/discspan/server/api"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
	"github.com/vugu/vugu"
	"github.com/vugu/vugu/staticrender"
)

// render renders a component to HTML without a browser.
func render(t *testing.T, b vugu.Builder) string {
	t.Helper()
	env, err := vugu.NewBuildEnv(nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := staticrender.New(&buf).Render(env.RunBuild(b)); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// loaded returns an app with a random model loaded and, when parse is set,
// the first example parsed with n3 and n6 side by side.
func loaded(t *testing.T, parse bool) (*app.App, *apptest.Platform, *apptest.Env) {
	t.Helper()
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 1), 61.25)
	env := &apptest.Env{}
	a := app.New(env, plat, app.Options{})
	env.Do(a.Start)
	env.Wait(t, "the model", 30*time.Second, func() bool { return a.Model.Ready() })
	if parse {
		env.Do(func() { a.SetCompare(true); a.SetOther("n6"); a.ParseNow() })
		env.Wait(t, "the parse", 30*time.Second, func() bool { return a.Parse.Seq == 1 })
	}
	return a, plat, env
}

// contains checks that html has every one of want.
func contains(t *testing.T, html string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(html, w) {
			t.Errorf("missing %q in\n%s", w, html)
		}
	}
}

func TestRootParsed(t *testing.T) {
	a, _, _ := loaded(t, true)
	html := render(t, &Root{App: a})
	contains(t, html,
		`data-phase="ready"`, `data-backend="cpu"`, `data-gpu="0"`, `data-seq="1"`,
		`id="backend"`, `(dev F1 <b class="devf1">42.50</b>)`, // the file's metadata wins over the list
		// The drawings themselves are set by TreePanel.populate, in the browser.
		`data-svg="`+a.Parse.Main.Key+`"`, `data-svg="`+a.Parse.Side.Key+`"`,
		`id="panel-main"`, `<table id="work"></table>`,
		`<option selected="selected" value="n3">n3</option>`,
		`class="to-compare"`, // each tree to the comparison of the variants
	)
	// The work table's rows (set by setHTML, in the browser).
	contains(t, (&Work{App: a}).rowsHTML(), `<tr><th>tokenizing</th><td>`, `<tr><th>decoding n3</th>`, `<tr><th>decoding n6</th>`, `<tr><th>drawing</th>`)
	// One table row per node, with its constituent, once the table is
	// open (Constituents.populate sets the rows, in the browser).
	for _, v := range a.Views() {
		if strings.Contains(html, `data-node="`) {
			t.Errorf("%s: the template has rows of its own", v.ID)
		}
		if rows := (&Constituents{App: a, View: v}).rowsHTML(); strings.Contains(rows, `data-node="`) {
			t.Errorf("%s: closed table has rows: %s", v.ID, rows)
		}
		table := (&Constituents{App: a, View: v, Open: true}).rowsHTML()
		if got := strings.Count(table, "<tr class="); got != len(v.Nodes) {
			t.Errorf("%s: %d rows for %d nodes", v.ID, got, len(v.Nodes))
		}
		for _, n := range v.Nodes {
			contains(t, table, fmt.Sprintf(`data-view="%s" data-node="%d" data-label="%s" data-cons="%s"><td><button type="button" class="pick" aria-pressed="false" aria-label="%s">%s</button>`, v.ID, n.Index, n.Label, n.Cons, htmlpkg.EscapeString(n.Label+", "+n.Words), n.Label))
		}
	}
	// A comparison's marks, colours in the drawing, are said in words.
	if v := a.Parse.Main; len(v.Nodes) > 1 {
		saved := [2]string{v.Nodes[0].Class, v.Nodes[1].Class}
		v.Nodes[0].Class, v.Nodes[1].Class = "miss", "extra"
		contains(t, (&Constituents{App: a, View: v, Open: true}).rowsHTML(), "(missed by the parse)", "(not in the other tree)")
		v.Nodes[0].Class, v.Nodes[1].Class = saved[0], saved[1]
	}
	// Words are escaped.
	v := a.Parse.Main
	if len(v.Nodes) > 0 {
		saved := v.Nodes[0].Words
		v.Nodes[0].Words = `<b>&"`
		contains(t, (&Constituents{App: a, View: v, Open: true}).rowsHTML(), `<td>&lt;b&gt;&amp;&#34;</td>`)
		v.Nodes[0].Words = saved
	}
	if strings.Contains(html, `class="loader"`) {
		t.Error("loader shown once ready")
	}
}

func TestDetails(t *testing.T) {
	a, _, env := loaded(t, true)
	if len(a.Parse.Main.Nodes) == 0 {
		t.Skip("no node")
	}
	contains(t, render(t, &Details{App: a}), "Hover over or click a node")
	env.Do(func() { a.Select("main", false, 0) })
	n := a.Parse.Main.Nodes[0]
	contains(t, render(t, &Details{App: a}), "<th>node</th><td>"+n.Label+"</td>", "<th>rule</th>", "<th>item score</th>", app.BlocksString(n.Blocks))
	contains(t, (&Constituents{App: a, View: a.Parse.Main, Open: true}).rowsHTML(), `class="node`+map[bool]string{true: " disc"}[n.Disc]+` sel"`)
}

func TestLoaderStates(t *testing.T) {
	plat := apptest.NewPlatform()
	env := &apptest.Env{}
	a := app.New(env, plat, app.Options{})
	contains(t, render(t, &Root{App: a}), `data-phase=""`)
	env.Do(a.Start)
	env.Wait(t, "the failure", 10*time.Second, func() bool { return a.Model.Phase == app.PhaseFailed })
	contains(t, render(t, &Root{App: a}), `id="load-error"`, `could not get the model list`, `id="retry"`)

	plat.Files["/api/models"] = []byte("[]")
	env.Do(a.Retry)
	env.Wait(t, "no model", 10*time.Second, func() bool { return a.Model.Phase == app.PhaseNoModel })
	contains(t, render(t, &Root{App: a}), `id="no-model"`, "weights/default.safetensors is missing")

	a.Model.Phase, a.Model.Done, a.Model.Total, a.Model.Current.Name = app.PhaseDownloading, 2e6, 8e6, "default"
	contains(t, render(t, &Loader{App: a}), "downloading the weights of default: 2.0 MB of 8.0 MB", `<progress max="100" aria-label="model download" value="25">`)
}

func TestJobBar(t *testing.T) {
	a := &app.App{Job: &app.Job{What: "parsing 3 sentences with n3", Done: 1, Total: 3, Elapsed: 1500 * time.Millisecond}}
	contains(t, render(t, &JobBar{App: a}), "parsing 3 sentences with n3… 1.5 s (1 of 3)", `value="33"`, `id="cancel"`)
}

func TestBankTab(t *testing.T) {
	a, _, env := loaded(t, false)
	env.Do(func() {
		a.OpenBank("dev.discbracket", []byte("(ROOT (smain (N 0=Hij) (N 1=heeft) (N 2=het) (N 3=boek)) (LET 4=.))\n(ROOT (np (N 0=Wie) (N 1=denk)) (LET 2=?))\n"))
	})
	env.Wait(t, "the parse", 30*time.Second, func() bool { return a.Job == nil && a.Bank.Parsed == 1 })
	html := render(t, &Root{App: a})
	contains(t, html, `id="bankfile"`, `<b>dev.discbracket</b>`, "of 2", `id="panel-gold"`, `id="panel-pred"`,
		"F1 ", "1 of 2 sentences parsed with n3", `data-view="gold"`)
}

func TestNotice(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  bool
		want string
	}{
		{"plain", false, `<p id="notice" class="notice" role="status">saved x</p>`},
		{"error", true, `<p id="notice" class="notice error" role="alert">saved x</p>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _, _ := loaded(t, false)
			a.Notice, a.NoticeErr = "saved x", tc.err
			contains(t, render(t, &Root{App: a}), tc.want)
		})
	}
}

// TestLanguage checks the model's language in the model bar and the
// warning about words the model does not know.
func TestLanguage(t *testing.T) {
	a, _, env := loaded(t, false)
	env.Do(func() { a.SetText("What should I do ?") })
	contains(t, render(t, &ParseTab{App: a}), `id="unknown-words"`, "3 of 3 words of this sentence are unknown to the model: its parse will mean little")
	env.Do(func() { a.SetText(strings.Join(apptest.Sentences[0], " ")) })
	if html := render(t, &ParseTab{App: a}); strings.Contains(html, `id="unknown-words"`) {
		t.Errorf("a warning for a sentence the model knows:\n%s", html)
	}
	a.Model.Language = "Dutch"
	contains(t, render(t, &ModelBar{App: a}), `<span id="model-language">Dutch, </span>dev F1`)
}

// TestModelBarList: with more than one model the bar lists them by name,
// each with its dev F1 and download size where the list has them, so that
// the default and the fast pair can be weighed.
func TestModelBarList(t *testing.T) {
	a, _, env := loaded(t, false)
	env.Do(func() {
		a.Model.Models = []api.Model{
			{Name: "default", Bytes: 6645702, DevF1: 81.78},
			{Name: "fast", Bytes: 7599038, DevF1: 81.11},
			{Name: "job-3"},
		}
	})
	var html string
	env.Do(func() { html = render(t, &ModelBar{App: a}) })
	contains(t, html, `<select class="models"`,
		`value="default">default (dev F1 81.78, 6.6 MB)</option>`,
		`value="fast">fast (dev F1 81.11, 7.6 MB)</option>`,
		`value="job-3">job-3</option>`)
}

// TestSentenceMenuWholeCharacters: the sentence menu shortens long
// sentences at a character boundary, never inside a multibyte character.
func TestSentenceMenuWholeCharacters(t *testing.T) {
	a, _, env := loaded(t, false)
	env.Do(func() { a.SetText("a" + strings.Repeat("é", 80) + " .") })
	c := &ParseTab{App: a}
	for _, o := range c.sentences() {
		if !utf8.ValidString(o.Label) || !strings.HasSuffix(o.Label, "…") {
			t.Errorf("menu label %q: want whole characters, shortened", o.Label)
		}
	}
}

// TestSentenceMenuOfALongText: a text of thousands of sentences lists
// maxSentenceOptions of them around the chosen one, each with its own
// number, the chosen one among them; a short text lists all.
func TestSentenceMenuOfALongText(t *testing.T) {
	a, _, env := loaded(t, false)
	var text strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&text, "Zin %d is kort . ", i+1)
	}
	for _, tc := range []struct {
		name         string
		text         string
		choose       int
		first, count int
	}{
		{"short text", "Een . Twee . Drie .", 1, 0, 3},
		{"at the start", text.String(), 3, 0, maxSentenceOptions},
		{"in the middle", text.String(), 1000, 1000 - maxSentenceOptions/2, maxSentenceOptions},
		{"at the end", text.String(), 1999, 2000 - maxSentenceOptions, maxSentenceOptions},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts []sentenceOption
			env.Do(func() {
				a.SetText(tc.text)
				a.ChooseSentence(tc.choose)
				opts = (&ParseTab{App: a}).sentences()
			})
			if len(opts) != tc.count || opts[0].Index != tc.first {
				t.Fatalf("%d entries from sentence %d, want %d from %d", len(opts), opts[0].Index, tc.count, tc.first)
			}
			chosen := false
			for k, o := range opts {
				if o.Index != tc.first+k || !strings.HasPrefix(o.Label, fmt.Sprintf("%d: ", o.Index+1)) {
					t.Fatalf("entry %d: %+v", k, o)
				}
				chosen = chosen || o.Index == tc.choose
			}
			if !chosen {
				t.Errorf("the chosen sentence %d is not listed", tc.choose)
			}
		})
	}
}

// TestSentenceMenuWhileTokenizing: while a large paste waits to be
// tokenized, the sentence menu (the old text's sentences, which a choice
// would apply to the new text's) is not shown, and the tokens line says
// why; once tokenized, the menu lists the new text's sentences.
func TestSentenceMenuWhileTokenizing(t *testing.T) {
	a, _, env := loaded(t, false)
	var text strings.Builder
	for text.Len() <= app.TokenizeNowBytes {
		fmt.Fprintf(&text, "Zin %d is kort . ", text.Len())
	}
	var html string
	env.Do(func() {
		a.SetText("Een . Twee . Drie .")
		a.SetText(text.String())
		if !a.Parse.Tokenizing() {
			t.Fatal("a paste of more than TokenizeNowBytes was tokenized at once")
		}
		html = render(t, &ParseTab{App: a})
	})
	if strings.Contains(html, `id="sentence"`) || !strings.Contains(html, "tokenizing the text") {
		t.Errorf("while tokenizing: menu shown %v, tokens line %v", strings.Contains(html, `id="sentence"`), strings.Contains(html, "tokenizing the text"))
	}
	env.Wait(t, "the tokenization", 30*time.Second, func() bool { return !a.Parse.Tokenizing() })
	env.Do(func() { html = render(t, &ParseTab{App: a}) })
	if !strings.Contains(html, `id="sentence"`) || !strings.Contains(html, "Zin 0 is kort") {
		t.Error("after the tokenization: no menu of the new sentences")
	}
}
