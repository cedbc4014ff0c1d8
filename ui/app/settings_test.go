package app_test

import (
	"strings"
	"testing"

	"github.com/discspan/discspan/ui/app"
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
