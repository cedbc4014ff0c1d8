package app_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/teach"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
	"github.com/discspan/discspan/weights"
)

// teachApp returns an app without a model, on the teaching tab.
func teachApp(t *testing.T) (*app.App, *apptest.Env) {
	t.Helper()
	env := &apptest.Env{}
	a := app.New(env, apptest.NewPlatform(), app.Options{})
	env.Do(func() { a.SetTab(app.TabTeach) })
	return a, env
}

// galleryTree returns gallery example i's tree.
func galleryTree(t *testing.T, i int) *tree.Tree {
	t.Helper()
	tr, err := teach.Gallery()[i].Tree()
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// The tab opens on the first example, replayed on gold scores with its
// smallest variant: the same replay as teach.GoldReplay.
func TestTeachDefault(t *testing.T) {
	a, _ := teachApp(t)
	s := &a.Teach.Stepper
	ex := teach.Gallery()[0]
	want, _, err := teach.GoldReplay(context.Background(), galleryTree(t, 0), ex.Smallest)
	if err != nil {
		t.Fatal(err)
	}
	if s.Trace == nil || s.Err != "" {
		t.Fatalf("no replay: %s", s.Err)
	}
	if s.Variant != ex.Smallest || !s.Gold || s.Title != ex.Title || len(s.Trace.Steps) != len(want.Steps) || s.Trace.Score != want.Score {
		t.Errorf("stepper %s %s gold %v: %d steps, score %v; want %s, %d steps, score %v",
			s.Title, s.Variant, s.Gold, len(s.Trace.Steps), s.Trace.Score, ex.Smallest, len(want.Steps), want.Score)
	}
	if s.Result == nil || s.Result.Err != "" || !strings.Contains(s.Result.SVG, "<svg") {
		t.Errorf("no result tree: %+v", s.Result)
	}
	if len(a.Teach.Gallery) != len(teach.Gallery()) || a.Teach.Shown == nil || a.Teach.Shown.Example != 0 {
		t.Errorf("gallery %d entries, shown %+v", len(a.Teach.Gallery), a.Teach.Shown)
	}
	if cards := a.TeachRuleCards(); len(cards) != 14 || cards[13].Rule != decode.CompleteDisc || cards[0].Diagram == "" || cards[0].InParse != 0 {
		t.Errorf("rule cards: %d", len(cards))
	}
}

// Positions run through the chart, the best derivation and the tree, and
// stay within bounds.
func TestStepperBounds(t *testing.T) {
	a, env := teachApp(t)
	s := &a.Teach.Stepper
	nSteps, nBest := len(s.Trace.Steps), len(s.Trace.Best)
	if s.Len() != nSteps+nBest+1 {
		t.Fatalf("Len %d, want %d", s.Len(), nSteps+nBest+1)
	}
	tests := []struct {
		name    string
		move    func()
		pos     int
		phase   string
		current int
	}{
		{"start", func() {}, 0, app.StepperBuild, 0},
		{"prev at the start", a.TeachPrev, 0, app.StepperBuild, 0},
		{"seek below", func() { a.TeachSeek(-3) }, 0, app.StepperBuild, 0},
		{"next", a.TeachNext, 1, app.StepperBuild, 1},
		{"last item built", func() { a.TeachSeek(nSteps - 1) }, nSteps - 1, app.StepperBuild, nSteps - 1},
		{"goal traced", a.TeachNext, nSteps, app.StepperTrace, s.Trace.Best[0]},
		{"last traced", func() { a.TeachSeek(nSteps + nBest - 1) }, nSteps + nBest - 1, app.StepperTrace, s.Trace.Best[nBest-1]},
		{"end", a.TeachNext, nSteps + nBest, app.StepperDone, -1},
		{"next at the end", a.TeachNext, nSteps + nBest, app.StepperDone, -1},
		{"seek above", func() { a.TeachSeek(1 << 20) }, nSteps + nBest, app.StepperDone, -1},
		{"back", a.TeachPrev, nSteps + nBest - 1, app.StepperTrace, s.Trace.Best[nBest-1]},
		{"first", a.TeachFirst, 0, app.StepperBuild, 0},
		{"last", a.TeachLast, nSteps + nBest, app.StepperDone, -1},
	}
	for _, tc := range tests {
		env.Do(tc.move)
		if s.Pos != tc.pos || s.Phase() != tc.phase || s.Current() != tc.current {
			t.Errorf("%s: pos %d phase %s current %d, want %d %s %d", tc.name, s.Pos, s.Phase(), s.Current(), tc.pos, tc.phase, tc.current)
		}
		if info := s.Info(); (info == nil) != (tc.current < 0) || info != nil && info.Step != tc.current {
			t.Errorf("%s: info %+v", tc.name, info)
		}
	}
}

// cellsWith returns the items of the cells with a class.
func cellsWith(cells []app.ChartCell, class string) []string {
	var out []string
	for _, c := range cells {
		if slices.Contains(strings.Fields(c.Class), class) {
			out = append(out, c.Item)
		}
	}
	return out
}

// The chart shows what is built at each position, the current item and
// its antecedents, the best derivation once traced, and the chosen
// rule's uses.
func TestStepperChart(t *testing.T) {
	a, env := teachApp(t)
	s := &a.Teach.Stepper
	n := s.Trace.N
	if cells := s.ContCells(decode.Axiom); len(cells) != n*(n+1)/2 {
		t.Fatalf("%d continuous cells for %d words", len(cells), n)
	}
	if got := cellsWith(s.ContCells(decode.Axiom), "built"); len(got) != 1 {
		t.Errorf("at the start, built %v", got)
	}
	// The first item with antecedents.
	x := slices.IndexFunc(s.Trace.Steps, func(st teach.Step) bool { return st.Rule != decode.Axiom })
	env.Do(func() { a.TeachSeek(x) })
	st := s.Trace.Steps[x]
	all := append(s.ContCells(decode.Axiom), s.DiscCells(decode.Axiom)...)
	checks := []struct {
		class string
		want  []string
	}{
		{"current", []string{st.Item.String()}},
		{"left", []string{s.Trace.Steps[st.Left].Item.String()}},
		{"right", []string{s.Trace.Steps[st.Right].Item.String()}},
		{"best", nil},
	}
	for _, c := range checks {
		if got := cellsWith(all, c.class); !slices.Equal(got, c.want) {
			t.Errorf("step %d: %s cells %v, want %v", x, c.class, got, c.want)
		}
	}
	if got := len(cellsWith(all, "built")); got != x+1 {
		t.Errorf("step %d: %d items built", x, got)
	}
	info := s.Info()
	if info == nil || info.Axiom || info.Left == nil || info.RuleDiagram == "" || !strings.Contains(info.Picture, "consequent") || info.Instances < 1 {
		t.Errorf("step %d: info %+v", x, info)
	}
	// At the end every best-derivation item is marked, and the chosen
	// rule's uses among them: the bottom items that create partial
	// discontinuous built (the example is replayed with n3).
	if s.Variant != decode.N3 {
		t.Fatalf("the first example is replayed with %s, the test expects n3", s.Variant)
	}
	env.Do(func() { a.TeachLast(); a.TeachChooseRule(int(decode.CreatePartial)) })
	all = append(s.ContCells(a.Teach.Rule), s.DiscCells(a.Teach.Rule)...)
	if got := len(cellsWith(all, "best")); got != len(s.Trace.Best) {
		t.Errorf("end: %d best cells, want %d", got, len(s.Trace.Best))
	}
	uses := s.Trace.Uses(decode.CreatePartial)
	if got := cellsWith(all, "ruleuse"); len(got) != len(uses) || len(uses) == 0 || !strings.HasPrefix(got[0], "bottom(") {
		t.Errorf("create partial: ruleuse cells %v, uses %v", got, uses)
	}
	if got := s.RuleUses(decode.CreatePartial); len(got) != len(uses) {
		t.Errorf("create partial: listed %d uses, want %d", len(got), len(uses))
	}
	if !strings.Contains(s.Status(), "done") {
		t.Errorf("status at the end: %s", s.Status())
	}
}

// Changing the variant replays the same tree; a gallery example too long
// or too hard shows what the variant builds.
func TestStepperVariant(t *testing.T) {
	a, env := teachApp(t)
	s := &a.Teach.Stepper
	cluster := slices.IndexFunc(teach.Gallery(), func(e teach.Example) bool { return e.ID == "dutch-nested" })
	env.Do(func() { a.TeachLoadExample(cluster) })
	tr := galleryTree(t, cluster)
	for _, v := range []decode.Variant{decode.Continuous, decode.N4, decode.N6} {
		env.Do(func() { a.TeachNext(); a.TeachSetVariant(v.String()) })
		want, _, err := teach.GoldReplay(context.Background(), tr, v)
		if err != nil {
			t.Fatal(err)
		}
		if s.Variant != v || s.Pos != 0 || s.Trace.Score != want.Score || len(s.Trace.Steps) != len(want.Steps) {
			t.Errorf("%s: stepper %s pos %d score %v steps %d; want score %v steps %d", v, s.Variant, s.Pos, s.Trace.Score, len(s.Trace.Steps), want.Score, len(want.Steps))
		}
	}
	if a.Teach.Shown.Example != cluster {
		t.Errorf("shown %d, want %d", a.Teach.Shown.Example, cluster)
	}
	env.Do(func() { a.TeachSetVariant("n7") })
	if s.Variant != decode.N6 {
		t.Errorf("an unknown variant changed the stepper to %s", s.Variant)
	}
}

// fakeTicker is a Ticker the test drives.
type fakeTicker struct {
	c       chan time.Time
	mu      sync.Mutex
	stopped bool
}

func (f *fakeTicker) C() <-chan time.Time { return f.c }

func (f *fakeTicker) Stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopped = true
}

func (f *fakeTicker) isStopped() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stopped
}

// Playing steps forward at each tick, pauses on demand, stops at the end
// and starts again from the beginning.
func TestStepperPlay(t *testing.T) {
	a, env := teachApp(t)
	s := &a.Teach.Stepper
	var tickers []*fakeTicker
	var intervals []time.Duration
	a.SetTicker(func(d time.Duration) app.Ticker {
		f := &fakeTicker{c: make(chan time.Time)}
		tickers = append(tickers, f)
		intervals = append(intervals, d)
		return f
	})
	env.Do(func() { a.TeachSetSpeed(app.PlayFast); a.TeachPlay() })
	if !s.Playing || len(tickers) != 1 || intervals[0] != app.PlayFast {
		t.Fatalf("playing %v, %d tickers, intervals %v", s.Playing, len(tickers), intervals)
	}
	tk := tickers[0]
	for want := 1; want <= 3; want++ {
		tk.c <- time.Time{} // unbuffered: taken by the player
		env.Wait(t, "a step", wait, func() bool { return s.Pos == want })
	}
	env.Do(a.TeachPlay) // pause
	env.Wait(t, "the ticker to stop", wait, tk.isStopped)
	if s.Playing || s.Pos != 3 {
		t.Errorf("paused: playing %v pos %d", s.Playing, s.Pos)
	}

	// Play to the end from the position before it.
	env.Do(func() { a.TeachSeek(s.Len() - 3); a.TeachPlay() })
	tk = tickers[len(tickers)-1]
	tk.c <- time.Time{}
	tk.c <- time.Time{}
	env.Wait(t, "the end", wait, func() bool { return s.AtEnd() && !s.Playing })
	env.Wait(t, "the ticker to stop", wait, tk.isStopped)

	// At the end, play starts again; a manual step pauses.
	env.Do(a.TeachPlay)
	if s.Pos != 0 || !s.Playing {
		t.Errorf("replay from the end: pos %d playing %v", s.Pos, s.Playing)
	}
	tk = tickers[len(tickers)-1]
	env.Do(a.TeachNext)
	env.Wait(t, "the ticker to stop", wait, tk.isStopped)
	if s.Playing || s.Pos != 1 {
		t.Errorf("after a manual step: pos %d playing %v", s.Pos, s.Playing)
	}
	// Leaving the tab pauses too.
	env.Do(func() { a.TeachPlay(); a.SetTab(app.TabParse) })
	env.Wait(t, "the ticker to stop", wait, tickers[len(tickers)-1].isStopped)
	if s.Playing {
		t.Error("still playing on another tab")
	}
}

func TestTeachKey(t *testing.T) {
	a, env := teachApp(t)
	s := &a.Teach.Stepper
	a.SetTicker(func(time.Duration) app.Ticker { return &fakeTicker{c: make(chan time.Time)} })
	tests := []struct {
		key     string
		used    bool
		pos     int
		playing bool
	}{
		{"ArrowRight", true, 1, false},
		{"ArrowRight", true, 2, false},
		{"ArrowLeft", true, 1, false},
		{"a", false, 1, false},
		{"Enter", false, 1, false},
		{" ", true, 1, true},
		{" ", true, 1, false},
		{"End", true, s.Len() - 1, false},
		{"Home", true, 0, false},
	}
	for _, tc := range tests {
		var used bool
		env.Do(func() { used = a.TeachKey(tc.key) })
		if used != tc.used || s.Pos != tc.pos || s.Playing != tc.playing {
			t.Errorf("key %q: used %v pos %d playing %v, want %v %d %v", tc.key, used, s.Pos, s.Playing, tc.used, tc.pos, tc.playing)
		}
	}
	env.Do(func() { a.SetTab(app.TabParse) })
	var used bool
	env.Do(func() { used = a.TeachKey("ArrowRight") })
	if used || s.Pos != 0 {
		t.Errorf("another tab: key used %v, pos %d", used, s.Pos)
	}
}

func TestParseFragment(t *testing.T) {
	tests := []struct {
		frag string
		ok   bool
		want app.Fragment
		err  error
	}{
		{"", false, app.Fragment{}, nil},
		{"#", false, app.Fragment{}, nil},
		{"#section-2", false, app.Fragment{}, nil},
		{"#teach", true, app.Fragment{Teach: true}, nil},
		{"#tree=t1.abc", true, app.Fragment{Teach: true, Tree: "t1.abc"}, nil},
		{"tree=t1.abc", true, app.Fragment{Teach: true, Tree: "t1.abc"}, nil},
		{"#x=1&tree=t1.a-b_c&y", true, app.Fragment{Teach: true, Tree: "t1.a-b_c"}, nil},
		{"#tree=t1.a%2Db", true, app.Fragment{Teach: true, Tree: "t1.a-b"}, nil},
		{"#tree%3Dt1.abc", true, app.Fragment{Teach: true, Tree: "t1.abc"}, nil},
		{"#teach%26exercise%3Dwh-question", true, app.Fragment{Teach: true, Exercise: "wh-question"}, nil},
		{"#tree=", true, app.Fragment{Teach: true}, app.ErrNoTreeInLink},
		{"#tree", true, app.Fragment{Teach: true}, app.ErrNoTreeInLink},
		{"#trees-section", false, app.Fragment{}, nil},
		{"#tree%253Dt2.abc", true, app.Fragment{Teach: true, Tree: "t2.abc"}, nil}, // encoded twice
		{"#tree%3Dt2.abc%2", true, app.Fragment{Teach: true, Tree: "t2.abc"}, app.ErrNoTreeInLink},
		{"#exercise%3Dwh-question%7", true, app.Fragment{Teach: true, Exercise: "wh-question"}, app.ErrNoAttemptInLink}, // its attempt cut off
		{"#tree%3Dt2.a%zz", true, app.Fragment{Teach: true}, app.ErrNoTreeInLink},
		{"#exercise%3D%zz", true, app.Fragment{Teach: true}, app.ErrNoAttemptInLink},
	}
	for _, tc := range tests {
		f, ok, err := app.ParseFragment(tc.frag)
		if f != tc.want || ok != tc.ok || !errors.Is(err, tc.err) || (err == nil) != (tc.err == nil) {
			t.Errorf("%q: %+v %v %v, want %+v %v %v", tc.frag, f, ok, err, tc.want, tc.ok, tc.err)
		}
	}
}

// exportOf writes a tree in the export format.
func exportOf(t *testing.T, tr *tree.Tree) string {
	t.Helper()
	var b bytes.Buffer
	if err := treebank.WriteExport(&b, []*tree.Tree{tr}, 4); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A shared link opens the tab with the tree, in the comparison and the
// stepper; damaged links say so.
func TestOpenFragment(t *testing.T) {
	a, env := teachApp(t)
	ex := slices.IndexFunc(teach.Gallery(), func(e teach.Example) bool { return e.ID == "verb-second" })
	var frag string
	env.Do(func() { a.TeachShowExample(ex); frag = a.TeachShare() })
	if !strings.HasPrefix(frag, "#tree=t2.") || a.Teach.Link != frag {
		t.Fatalf("share: %q (Link %q)", frag, a.Teach.Link)
	}

	b := app.New(&apptest.Env{}, apptest.NewPlatform(), app.Options{})
	if !b.OpenFragment(frag) {
		t.Fatal("the link was not opened")
	}
	want := galleryTree(t, ex)
	// A gallery example comes with its title and explanation, as the
	// sender saw it.
	gallery := teach.Gallery()[ex]
	if b.Tab != app.TabTeach || b.Teach.LinkErr != "" || b.Teach.Shown == nil || b.Teach.Shown.Example != ex ||
		b.Teach.Shown.Title != gallery.Title || b.Teach.Shown.Explanation != gallery.Explanation {
		t.Fatalf("tab %s, error %q, shown %+v", b.Tab, b.Teach.LinkErr, b.Teach.Shown)
	}
	if got := exportOf(t, b.Teach.Shown.Tree); got != exportOf(t, want) {
		t.Errorf("shared tree\n%s\nwant\n%s", got, exportOf(t, want))
	}
	if s := b.Teach.Stepper; !s.Gold || s.Title != gallery.Title || !slices.Equal(s.Words, want.Words()) {
		t.Errorf("stepper: %s %v", s.Title, s.Words)
	}
	if len(b.Teach.Shown.Builds) != len(app.ComparedVariants()) {
		t.Errorf("%d builds", len(b.Teach.Shown.Builds))
	}
	// Another tree, or the example's tree under another id, is a shared
	// tree of its own.
	other := galleryTree(t, ex)
	other.ID = "colleague-1"
	otherFrag, err := app.ShareFragment(other)
	if err != nil {
		t.Fatal(err)
	}
	c := app.New(&apptest.Env{}, apptest.NewPlatform(), app.Options{})
	if !c.OpenFragment(otherFrag) || c.Teach.Shown == nil || c.Teach.Shown.Example != -1 || c.Teach.Shown.Title != "Shared tree colleague-1" {
		t.Errorf("another id: shown %+v", c.Teach.Shown)
	}

	tests := []struct {
		frag, want string
		ok         bool
	}{
		{"", "", false},
		{"#other", "", false},
		{"#teach", "", true},
		{frag[:len(frag)-7], "damaged", true},
		{"#tree=t1.%%%", "damaged", true},
		{"#tree=zz", "not a tree link", true},
		{"#tree=", "holds no tree", true},
		{"#tree=t7." + frag[len("#tree=t2."):], "newer version of discspan: reload the page to get it.", true},
		{frag[:40] + "%0A%20" + frag[40:] + ".", "", true}, // wrapped by a mail client, a full stop after it
		{strings.Replace(frag, "=", "%253D", 1), "", true},
		{strings.Replace(frag, "=", "%3D", 1)[:60] + "%2", "cut short or damaged", true},
		{frag[:len(frag)-9] + "A" + frag[len(frag)-8:], "damaged link", true},
	}
	for _, tc := range tests {
		c := app.New(&apptest.Env{}, apptest.NewPlatform(), app.Options{})
		ok := c.OpenFragment(tc.frag)
		if ok != tc.ok || tc.ok && c.Tab != app.TabTeach || !strings.Contains(c.Teach.LinkErr, tc.want) || (tc.want == "") != (c.Teach.LinkErr == "") {
			t.Errorf("%q: ok %v tab %s error %q, want %v and %q", tc.frag, ok, c.Tab, c.Teach.LinkErr, tc.ok, tc.want)
		}
		if tc.ok && c.Teach.Shown == nil {
			t.Errorf("%q: nothing shown", tc.frag)
		}
	}
}

// The comparison marks what each variant builds: the Dutch cluster with
// nested infinitives needs n5wn.
func TestTeachCompare(t *testing.T) {
	a, env := teachApp(t)
	cluster := slices.IndexFunc(teach.Gallery(), func(e teach.Example) bool { return e.ID == "dutch-nested" })
	env.Do(func() { a.TeachShowExample(cluster) })
	sh := a.Teach.Shown
	if sh.Err != "" || len(sh.Builds) != len(app.ComparedVariants()) {
		t.Fatalf("shown: %+v", sh)
	}
	complete := map[decode.Variant]bool{decode.Continuous: false, decode.N3: false, decode.N5WN: true, decode.N6: true}
	for _, b := range sh.Builds {
		if b.Complete != complete[b.Variant] || b.View == nil || b.View.SVG == "" {
			t.Errorf("%s: complete %v, view %v", b.Name, b.Complete, b.View != nil)
		}
		if missDrawn := strings.Contains(b.View.SVG, ` miss"`); missDrawn == b.Complete || !strings.Contains(b.View.SVG, ` match"`) {
			t.Errorf("%s: complete %v, misses drawn %v", b.Name, b.Complete, missDrawn)
		}
		if n := len(b.Found) + len(b.Missing); n != 5 {
			t.Errorf("%s: %d constituents listed", b.Name, n)
		}
	}
}

// Choosing a rule lists the items of the current parse it built and
// marks their nodes; the stepper can replay the parsed sentence with the
// model's own scores.
func TestTeachParse(t *testing.T) {
	plat := apptest.NewPlatform()
	data := apptest.Model(t, 1)
	plat.AddModel("default", data, 0)
	a, env := start(t, plat, app.Options{})
	words := apptest.Sentences[0][:8]
	main := parseWith(t, a, env, func() { a.SetText(strings.Join(words, " ")); a.SetVariant("n6"); a.ParseNow() })
	d := a.Parse.Derivation()
	if d == nil || len(d.Items) != len(main.Parse.Items) || d.N != len(words) {
		t.Fatalf("derivation %+v", d)
	}
	env.Do(func() { a.SetTab(app.TabTeach) })
	used := 0
	for _, card := range a.TeachRuleCards() {
		env.Do(func() { a.TeachChooseRule(card.ID) })
		apps := teach.Applications(d, card.Rule)
		if len(a.Teach.ParseUses) != len(apps) || card.InParse != len(apps) {
			t.Errorf("%s: %d uses listed, card %d, derivation %d", card.Name, len(a.Teach.ParseUses), card.InParse, len(apps))
		}
		if len(apps) > 0 {
			used++
		}
		if a.Teach.UsesView == nil {
			t.Fatalf("%s: no tree", card.Name)
		}
		marked := 0
		for _, u := range a.Teach.ParseUses {
			if u.Node >= 0 {
				marked++
				if u.Label == "null label" || !strings.Contains(a.Teach.UsesView.SVG, "ruleuse") {
					t.Errorf("%s: use %+v not marked", card.Name, u)
				}
			}
		}
		if marked == 0 && strings.Contains(a.Teach.UsesView.SVG, "ruleuse") {
			t.Errorf("%s: marks without uses", card.Name)
		}
	}
	if used == 0 {
		t.Error("the parse uses no rule")
	}
	env.Do(func() { a.TeachChooseRule(int(a.Teach.Rule)) })
	if a.Teach.Rule != decode.Axiom || a.Teach.UsesView != nil {
		t.Errorf("choosing the rule again left %s chosen", a.Teach.Rule)
	}

	// The model's own scores, as the network computes them here.
	f, err := weights.Read(data, "model")
	if err != nil {
		t.Fatal(err)
	}
	m, err := f.Model()
	if err != nil {
		t.Fatal(err)
	}
	outs, err := m.ForwardBatch([]network.Input{f.Meta.Vocab.Encode(words)})
	if err != nil {
		t.Fatal(err)
	}
	s := &a.Teach.Stepper
	if why := a.TeachSentenceBlocked(); why != "" {
		t.Fatalf("blocked: %s", why)
	}
	env.Do(func() { a.TeachSetVariant("n4"); a.TeachUseSentence() })
	env.Wait(t, "the replay", wait, func() bool { return a.Job == nil })
	if s.Gold || s.Trace == nil || s.Variant != decode.N4 {
		t.Fatalf("stepper: gold %v, %s, error %s", s.Gold, s.Variant, s.Err)
	}
	for _, v := range []decode.Variant{decode.N4, decode.N6} {
		env.Do(func() { a.TeachSetVariant(v.String()) })
		want, err := teach.Replay(context.Background(), v, outs[0].Scores)
		if err != nil {
			t.Fatal(err)
		}
		if s.Trace.Score != want.Score || len(s.Trace.Steps) != len(want.Steps) || !slices.Equal(s.Words, words) {
			t.Errorf("%s: score %v, %d steps; want %v, %d", v, s.Trace.Score, len(s.Trace.Steps), want.Score, len(want.Steps))
		}
		if s.Result == nil || s.Result.Err != "" {
			t.Errorf("%s: result %+v", v, s.Result)
		}
	}
	// The replayed n6 tree is the parse's.
	if got, want := constituents(s.Result.Tree), constituents(main.Tree); !slices.Equal(got, want) {
		t.Errorf("stepper's n6 tree %v, the parse's %v", got, want)
	}

	// Too long for the stepper.
	env.Do(func() { a.SetText(strings.Repeat("het boek ", 7)) })
	if why := a.TeachSentenceBlocked(); !strings.Contains(why, "at most") {
		t.Errorf("long sentence: %q", why)
	}
}

// A parsed sentence goes to the comparison of the variants from its tree
// panel, and from there into a link that shows the same tree elsewhere.
func TestTeachCompareParse(t *testing.T) {
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 1), 0)
	a, env := start(t, plat, app.Options{})
	words := apptest.Sentences[1]
	parseWith(t, a, env, func() { a.SetText(strings.Join(words, " ")); a.ParseNow() })
	var frag string
	env.Do(func() {
		a.TeachCompareView("main")
		sh := a.Teach.Shown
		if a.Tab != app.TabTeach || a.Teach.Section != app.TeachSectionVariants || sh == nil || sh.Err != "" ||
			!slices.Equal(sh.Tree.Words(), words) || len(sh.Builds) != len(app.ComparedVariants()) {
			t.Fatalf("tab %s, section %s, shown %+v", a.Tab, a.Teach.Section, sh)
		}
		parsed := a.Parse.Main.Tree.Clone()
		parsed.ID = "sentence" // a tree without an id gets one, for its link
		if got, want := exportOf(t, sh.Tree), exportOf(t, parsed); got != want {
			t.Errorf("compared tree\n%s\nwant the parse\n%s", got, want)
		}
		frag = a.TeachShare()
	})
	b := app.New(&apptest.Env{}, apptest.NewPlatform(), app.Options{})
	if !b.OpenFragment(frag) || b.Teach.Shown == nil || !slices.Equal(b.Teach.Shown.Tree.Words(), words) {
		t.Fatalf("the link %q shows %+v", frag, b.Teach.Shown)
	}
	env.Do(func() { a.TeachCompareView("nothing") })
	if !a.NoticeErr {
		t.Error("no tree: nothing said")
	}
}

// Each step of play lets the page run (draw the step, answer input)
// before the next: a step drawn slower than the interval froze the page
// until the end.
func TestStepperPlayLetsThePageRun(t *testing.T) {
	env := &apptest.Env{}
	plat := apptest.NewPlatform()
	a := app.New(env, plat, app.Options{})
	env.Do(func() { a.SetTab(app.TabTeach) })
	tk := &fakeTicker{c: make(chan time.Time)}
	a.SetTicker(func(time.Duration) app.Ticker { return tk })
	env.Do(a.TeachPlay)
	before := plat.Yields()
	for step := 1; step <= 3; step++ {
		tk.c <- time.Time{} // unbuffered: taken once the player is back for it
		env.Wait(t, "a step and a turn for the page", wait, func() bool {
			return a.Teach.Stepper.Pos == step && plat.Yields()-before >= int64(step)
		})
	}
	env.Do(a.TeachPlay)
}
