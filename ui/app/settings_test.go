package app_test

import (
	"strings"
	"testing"

	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// TestSettingsKept: turning the single-key shortcuts off and closing the
// table of the work done are kept for the next visit (a new app on the
// same store), and survive a new corpus;
// turning them on again is kept too; a damaged record is said and leaves
// the defaults.
func TestSettingsKept(t *testing.T) {
	store := &memStore{}
	a, env := annApp(t, store)
	stored := func() string {
		store.mu.Lock()
		defer store.mu.Unlock()
		return string(store.data[app.SettingsKey])
	}
	env.Do(func() { a.AnnSetLetterKeys(false); a.SetWorkClosed(true) })
	env.Wait(t, "the settings written", wait, func() bool {
		return strings.Contains(stored(), "letter_keys_off") && strings.Contains(stored(), "work_closed")
	})

	b, envB := annApp(t, store)
	envB.Wait(t, "the settings restored", wait, func() bool { return b.Annotate.LetterKeysOff && b.WorkClosed })
	envB.Do(b.AnnNewCorpus)
	envB.Do(b.AnnNewCorpus)
	if err := b.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stored(), "letter_keys_off") {
		t.Errorf("after a new corpus, the settings are %q", stored())
	}
	envB.Do(func() { b.AnnSetLetterKeys(true); b.SetWorkClosed(false) })
	envB.Wait(t, "the settings written", wait, func() bool { return stored() == "{}" })

	store.mu.Lock()
	store.data[app.SettingsKey] = []byte("{not json")
	store.mu.Unlock()
	d, envD := annApp(t, store)
	envD.Wait(t, "the damaged settings said", wait, func() bool { return d.NoticeErr && strings.Contains(d.Notice, "settings") })
	envD.Do(func() {
		if d.Annotate.LetterKeysOff || d.WorkClosed {
			t.Error("damaged settings changed the defaults")
		}
	})
}

// A setting chosen while the kept ones are read stands, the others kept
// are applied, and the record written afterwards holds both (a write
// before the read put the defaults in place of the kept settings).
func TestSettingsChosenDuringRead(t *testing.T) {
	mem := &memStore{data: map[string][]byte{app.SettingsKey: []byte(`{"letter_keys_off":true}`)}}
	store := blockingStore{memStore: mem, release: make(chan struct{})}
	plat := apptest.NewPlatform()
	env := &apptest.Env{}
	a := app.New(env, struct {
		*apptest.Platform
		app.Store
	}{plat, store}, app.Options{})
	env.Do(func() { a.SetWorkClosed(true) })
	close(store.release)
	env.Wait(t, "the kept settings applied", wait, func() bool { return a.Annotate.LetterKeysOff })
	env.Wait(t, "the merged settings written", wait, func() bool {
		mem.mu.Lock()
		defer mem.mu.Unlock()
		rec := string(mem.data[app.SettingsKey])
		return strings.Contains(rec, "letter_keys_off") && strings.Contains(rec, "work_closed")
	})
	env.Do(func() {
		if !a.WorkClosed {
			t.Error("the choice made during the read was undone")
		}
	})
}
