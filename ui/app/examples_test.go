package app_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/tokenize"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
	"github.com/discspan/discspan/weights"
)

// TestExamplesShowDiscontinuity checks the examples taken from the
// treebank: the text tokenizes into the gold tree's words as one
// sentence, the gold tree has discontinuous constituents, the shipped
// model with the app's default decoder (n3) finds exactly those, and the
// gold line is the treebank's (where the data is there).
func TestExamplesShowDiscontinuity(t *testing.T) {
	p, err := parser.Load() // the embedded default model
	if err != nil {
		t.Fatal(err)
	}
	dev, devErr := os.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "alpino-cdb", "dev.punctmoved.discbracket"))
	if devErr != nil {
		t.Logf("no Alpino dev set: the gold lines are not compared with it (%v)", devErr)
	}
	devLines := strings.Split(string(dev), "\n")
	withGold := 0
	for _, e := range app.Examples {
		if e.Gold == "" {
			continue
		}
		withGold++
		t.Run(e.Name, func(t *testing.T) {
			gold := e.GoldTree()
			if gold == nil {
				t.Fatalf("gold %q does not read", e.Gold)
			}
			sents := tokenize.Sentences(e.Text)
			var got []string
			if len(sents) == 1 {
				for _, tok := range sents[0] {
					got = append(got, tok.Text)
				}
			}
			if want := gold.Words(); !slices.Equal(got, want) {
				t.Errorf("the text tokenizes into %q (%d sentences), the gold tree has %q", got, len(sents), want)
			}
			disc := gold.Discontinuous()
			if len(disc) == 0 {
				t.Errorf("the gold tree has no discontinuous constituent")
			}
			r, err := p.ParseWords(gold.Words(), decode.N3)
			if err != nil {
				t.Fatal(err)
			}
			if parsed := r.Tree.Discontinuous(); !slices.Equal(parsed, disc) {
				t.Errorf("the shipped model's discontinuous constituents %v, the gold tree's %v", parsed, disc)
			}
			if devErr == nil {
				n, err := strconv.Atoi(strings.TrimPrefix(e.Source, "Alpino dev, sentence "))
				if err != nil || n < 1 || n > len(devLines) || devLines[n-1] != e.Gold {
					t.Errorf("source %q: not that line of dev.punctmoved.discbracket", e.Source)
				}
			}
		})
	}
	if withGold < 5 {
		t.Errorf("%d examples from the treebank, want at least 5", withGold)
	}
}

// gateEngine parses normally until block is set; then Parse waits for its
// context (a long parse, cancelled).
type gateEngine struct {
	parser.Engine
	block atomic.Bool
}

func (g *gateEngine) Parse(ctx context.Context, req parser.Request) (*parser.Parse, error) {
	if g.block.Load() {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return g.Engine.Parse(ctx, req)
}

// TestExampleGoldAndStaleResults checks that an example from the treebank
// is drawn with its gold tree, that a sentence without one is not, and
// that no tree stays on screen after an empty input or a cancelled parse.
func TestExampleGoldAndStaleResults(t *testing.T) {
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 6), 0)
	eng := &gateEngine{}
	plat.Engine = eng
	a, env := start(t, plat, app.Options{})
	views := func() []string {
		var ids []string
		for _, v := range a.Views() {
			ids = append(ids, v.ID)
		}
		return ids
	}
	parseWith(t, a, env, func() { a.UseExample(0) })
	if got := views(); !slices.Equal(got, []string{"main", "gold"}) {
		t.Fatalf("views %v after an example, want main and gold", got)
	}
	if m := a.Parse.Main; m.RootX <= 0 || m.RootX >= m.Width || m.TreeKey == "" {
		t.Errorf("main view: root at %v of %v px, tree key %q", m.RootX, m.Width, m.TreeKey)
	}
	if g := a.Parse.Gold; g.Tree.Len() != len(strings.Fields(app.Examples[0].Text)) || !strings.Contains(g.Title, app.Examples[0].Source) {
		t.Errorf("gold view %q over %d words", g.Title, g.Tree.Len())
	}

	for _, tc := range []struct {
		name, text string
		cancel     bool
		wantErr    string
	}{
		{name: "empty input", text: " ", wantErr: "type a sentence first"},
		{name: "cancelled parse", text: "Hij slaapt .", cancel: true, wantErr: "cancelled"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng.block.Store(false)
			parseWith(t, a, env, func() { a.SetText("Het regent ."); a.ParseNow() })
			if got := views(); !slices.Equal(got, []string{"main"}) {
				t.Fatalf("views %v for a sentence not among the examples, want main", got)
			}
			eng.block.Store(tc.cancel)
			env.Do(func() { a.SetText(tc.text); a.ParseNow() })
			if tc.cancel {
				env.Do(a.Cancel)
			}
			env.Wait(t, "the message", wait, func() bool { return a.Job == nil && a.Parse.Err != "" })
			if a.Parse.Err != tc.wantErr || len(views()) != 0 {
				t.Errorf("message %q, views %v; want %q and no tree", a.Parse.Err, views(), tc.wantErr)
			}
		})
	}
}

// TestLanguageWarning checks, with the shipped model, that the app knows
// the model's language and warns when the sentence looks foreign to it
// (English into the Dutch model, even English its vocabulary knows from
// quotations), and only then.
func TestLanguageWarning(t *testing.T) {
	plat := apptest.NewPlatform()
	plat.AddModel("default", weights.DefaultBytes(), 0)
	a, env := start(t, plat, app.Options{Backend: parser.BackendCPU})
	if a.Model.Phase != app.PhaseReady || a.Model.Language != "Dutch" {
		t.Fatalf("phase %s, language %q; want ready, Dutch", a.Model.Phase, a.Model.Language)
	}
	for _, tc := range []struct{ text, want string }{
		{"What should I do ?", "This sentence looks like English, but the model was trained on Dutch: its parse will mean little (4 of 4 words are unknown to the model or English words)."},
		{"The cat sat on the mat .", "looks like English"},
		{"Xylofoonqwerty blorpeling .", "2 of 2 words of this sentence are unknown to the model, which was trained on Dutch, or common words of another language"},
		{"Wat moet ik doen ?", ""},
		{app.Examples[0].Text, ""},
		{"", ""},
	} {
		var got string
		env.Do(func() { a.SetText(tc.text); got = a.UnknownWarning() })
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%q: warning %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestScrollLeft(t *testing.T) {
	v := &app.TreeView{Width: 1000, RootX: 700}
	for _, tc := range []struct {
		name          string
		zoom, clientW float64
		want          float64
	}{
		{"fits", 1, 1200, 0},
		{"root centred", 1, 400, 500},
		{"zoomed", 0.5, 200, 250},
		{"clamped at the right", 1, 800, 200},
		{"clamped at the left", 1, 999, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := v.ScrollLeft(tc.zoom, tc.clientW); got != tc.want {
				t.Errorf("ScrollLeft(%v, %v) = %v, want %v", tc.zoom, tc.clientW, got, tc.want)
			}
		})
	}
	left := &app.TreeView{Width: 1000, RootX: 100}
	if got := left.ScrollLeft(1, 400); got != 0 {
		t.Errorf("root near the left: ScrollLeft = %v, want 0", got)
	}
}
