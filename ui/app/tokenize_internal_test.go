package app

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockEnv is the Env of the tests in package app.
type lockEnv struct{ sync.Mutex }

func (e *lockEnv) UnlockRender() { e.Unlock() }

// devText returns the words of the dev treebank's discbracket file as
// running text, paragraphs of 20 sentences between blank lines.
func devText(t *testing.T) string {
	t.Helper()
	path := filepath.Join("..", "..", "..", "shared", "data", "alpino-cdb", "dev.discbracket")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("treebank data not found at %s (../shared/data beside the repository): %v", path, err)
	}
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		for _, f := range strings.Fields(line) {
			if _, w, ok := strings.Cut(f, "="); ok {
				b.WriteString(strings.TrimRight(w, ")") + " ")
			}
		}
		if i%20 == 19 {
			b.WriteString("\n\n")
		}
	}
	return b.String()
}

// TestTokenizeAsTyped: an edit of one paragraph of a long text tokenizes
// that paragraph alone, at once; a paste of more than TokenizeNowBytes is
// tokenized once typing pauses, while the old sentences stay shown, or at
// once when a sentence is chosen; every time the sentences are those of
// the whole text tokenized afresh.
func TestTokenizeAsTyped(t *testing.T) {
	text := strings.Repeat(devText(t), 3) // 3 x 714 sentences, about 280 KB
	if len(text) <= 2*TokenizeNowBytes {
		t.Fatalf("a text of %d bytes", len(text))
	}
	env := &lockEnv{}
	a := &App{env: env}
	fresh := func(what string) {
		t.Helper()
		if want := sentenceWords(a.Parse.Text); !reflect.DeepEqual(a.Parse.Sentences, want) {
			t.Fatalf("%s: %d sentences, want those of the text tokenized whole (%d)", what, len(a.Parse.Sentences), len(want))
		}
	}
	do := func(f func()) { env.Lock(); defer env.Unlock(); f() }

	do(func() { a.SetText("Een zin .") })
	do(func() {
		a.SetText(text) // a paste
		if !a.Parse.Tokenizing() || len(a.Parse.Sentences) != 1 {
			t.Errorf("right after a paste of %d bytes: tokenizing %v, %d sentences; want the old sentence shown meanwhile", len(text), a.Parse.Tokenizing(), len(a.Parse.Sentences))
		}
	})
	deadline := time.Now().Add(time.Minute) // a bound on waiting, not a speed asked for
	for {
		var done bool
		do(func() { done = !a.Parse.Tokenizing() })
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the paste was never tokenized")
		}
		time.Sleep(10 * time.Millisecond)
	}
	do(func() { fresh("after the paste") })

	// An edit in the middle: one paragraph tokenized, at once.
	do(func() {
		before := a.Parse.tokenizedBytes
		mid := strings.Index(text[len(text)/2:], "\n\n") + len(text)/2 + 2
		edited := text[:mid] + "Een nieuwe zin , ingevoegd . " + text[mid:]
		a.SetText(edited)
		if a.Parse.Tokenizing() {
			t.Fatal("an edit of one paragraph waits for a pause")
		}
		fresh("after an edit")
		if n := a.Parse.tokenizedBytes - before; n > 4<<10 {
			t.Errorf("an edit of one paragraph tokenized %d bytes", n)
		}
	})

	// A long paragraph edited: deferred, but choosing a sentence (as a
	// parse, the stepper and the annotation do) tokenizes at once.
	long := strings.ReplaceAll(text, "\n\n", " ")
	do(func() {
		a.SetText(long)
		if !a.Parse.Tokenizing() {
			t.Fatal("a paragraph of 280 KB tokenized at once")
		}
		a.ChooseSentence(5)
		if a.Parse.Tokenizing() || a.Parse.Index != 5 {
			t.Fatalf("after choosing a sentence: tokenizing %v, sentence %d", a.Parse.Tokenizing(), a.Parse.Index)
		}
		fresh("after choosing a sentence")
	})
	// The timer scheduled for it finds nothing to do and goes.
	deadline = time.Now().Add(time.Minute)
	for {
		var due bool
		do(func() { due = a.Parse.tokenizeDue })
		if !due {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the scheduled tokenization never ended")
		}
		time.Sleep(10 * time.Millisecond)
	}
	do(func() { fresh("at the end") })
}
