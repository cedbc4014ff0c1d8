package app_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// corpusWords lists the corpus's sentences as text.
func corpusWords(a *app.App) []string {
	if a.Annotate.Corpus == nil {
		return nil
	}
	var out []string
	for _, s := range a.Annotate.Corpus.Sentences {
		out = append(out, strings.Join(s.Tree().Words(), " "))
	}
	return out
}

// An annotator adds sentences (the Sentence tab's, then typed ones, one a
// line or several on a line), removes one, and starts a new corpus; the
// store follows, and a reload restores what was left.
func TestAnnotateAddRemove(t *testing.T) {
	store := &memStore{}
	a, env := annApp(t, store)
	s0, s1, s2 := strings.Join(apptest.Sentences[0], " "), strings.Join(apptest.Sentences[1], " "), strings.Join(apptest.Sentences[2], " ")
	bare0, bare1 := strings.TrimSuffix(s0, " ."), strings.TrimSuffix(s1, " .")
	steps := []struct {
		name string
		do   func()
		want []string // the corpus's sentences afterwards
		at   int      // the sentence shown
	}{
		{"the Sentence tab's sentence", func() { a.SetText(s0); a.SetTab(app.TabAnnotate); a.AnnNew() }, []string{s0}, 0},
		{"a second, typed", func() { a.AnnSetAddText(s1); a.AnnAddText() }, []string{s0, s1}, 1},
		{"a third, and the first again, pasted as two lines", func() { a.AnnSetAddText(s2 + "\n\n" + s0 + "\n"); a.AnnAddText() }, []string{s0, s1, s2, s0}, 2},
		{"remove the second", func() { a.AnnGo(1); a.AnnRemove() }, []string{s0, s2, s0}, 1},
		// Lines without a full stop, ended by a lone CR (an old Mac file)
		// and U+2028: each is a sentence of its own.
		{"two more, pasted with other line ends", func() { a.AnnSetAddText(bare1 + "\r" + bare0 + "\u2028" + bare1); a.AnnAddText() }, []string{s0, s2, s0, bare1, bare0, bare1}, 3},
	}
	for _, st := range steps {
		env.Do(st.do)
		idle(t, a, env)
		env.Do(func() {
			if got := corpusWords(a); !slices.Equal(got, st.want) || a.Annotate.Index != st.at {
				t.Errorf("%s: corpus %q at %d, want %q at %d", st.name, got, a.Annotate.Index, st.want, st.at)
			}
			if a.Annotate.Gold == nil || len(a.Annotate.Gold.Sentences) != len(a.Annotate.Corpus.Sentences) {
				t.Errorf("%s: the reference analyses do not follow the corpus", st.name)
			}
			if sent := a.AnnSentence(); sent == nil || sent.Status() != annotate.PreAnnotated || len(sent.Tree().Nodes) == 0 {
				t.Errorf("%s: the sentence shown is not a parse", st.name)
			}
		})
	}
	env.Do(func() {
		var ids []string
		for _, s := range a.Annotate.Corpus.Sentences {
			ids = append(ids, s.ID())
		}
		if len(slices.Compact(slices.Sorted(slices.Values(ids)))) != len(ids) {
			t.Errorf("sentence ids not unique: %v", ids)
		}
		if a.AnnAddText(); a.Annotate.Err == "" {
			t.Error("adding an empty box gives no error")
		}
	})
	if err := a.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}
	b, _ := annApp(t, store)
	if got := corpusWords(b); !slices.Equal(got, steps[len(steps)-1].want) {
		t.Errorf("restored %q", got)
	}

	// A new corpus: the first click asks, the second empties it, and the
	// store forgets it.
	env.Do(a.AnnNewCorpus)
	if a.Annotate.Corpus == nil || !strings.Contains(a.Annotate.Msg, "again to confirm") {
		t.Errorf("no confirmation asked: %q", a.Annotate.Msg)
	}
	env.Do(a.AnnNewCorpus)
	if a.Annotate.Corpus != nil {
		t.Fatal("the corpus is still there")
	}
	if err := a.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}
	c, _ := annApp(t, store)
	if c.Annotate.Corpus != nil || c.Annotate.SaveErr != "" {
		t.Errorf("after a new corpus, a reload restored %q (%s)", corpusWords(c), c.Annotate.SaveErr)
	}
	env.Do(func() { a.AnnSetAddText(s1); a.AnnAddText() })
	idle(t, a, env)
	if got := corpusWords(a); !slices.Equal(got, []string{s1}) || a.Annotate.Corpus.Sentences[0].ID() != "1" {
		t.Errorf("the new corpus: %q", got)
	}
}

// While the model loads, adding a sentence stores nothing and says why;
// without a model the sentence is added unparsed and the message says so.
func TestAnnotateAddWithoutModel(t *testing.T) {
	words := strings.Join(apptest.Sentences[0], " ")
	env := &apptest.Env{}
	a := app.New(env, apptest.NewPlatform(), app.Options{Text: words})
	env.Do(func() {
		a.Model.Phase = app.PhaseLoading
		a.AnnNew()
	})
	if a.Annotate.Corpus != nil || !strings.Contains(a.Annotate.Err, "still loading") {
		t.Errorf("while loading: corpus %q, error %q", corpusWords(a), a.Annotate.Err)
	}
	env.Do(a.Start) // the platform serves no model list: the load fails
	env.Wait(t, "the load to end", wait, func() bool { return a.Model.Phase == app.PhaseFailed })
	env.Do(a.AnnNew)
	if got := corpusWords(a); !slices.Equal(got, []string{words}) || !strings.Contains(a.Annotate.Msg, "unparsed") {
		t.Errorf("without a model: corpus %q, message %q", got, a.Annotate.Msg)
	}
}
