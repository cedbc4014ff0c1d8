package app

import (
	"encoding/json"
	"fmt"
)

// SettingsKey is the key of the user's settings in the Store, apart from
// the annotation project: starting a new corpus keeps them.
const SettingsKey = "settings"

// Settings are the choices the app keeps between visits.
type Settings struct {
	// LetterKeysOff: AnnotateState.LetterKeysOff.
	LetterKeysOff bool `json:"letter_keys_off,omitempty"`
	// WorkClosed: App.WorkClosed.
	WorkClosed bool `json:"work_closed,omitempty"`
}

// The settings chosen during the read of the kept ones (App.settingsChosen).
const (
	chosenLetterKeys = 1 << iota
	chosenWorkClosed
)

// currentSettings returns the settings as the state holds them; the caller
// holds the lock.
func (a *App) currentSettings() Settings {
	return Settings{LetterKeysOff: a.Annotate.LetterKeysOff, WorkClosed: a.WorkClosed}
}

// saveSettings writes the settings to the store in the background (the
// caller holds the lock), once the kept ones were read (restoreSettings
// writes them then: a write before would put the defaults in place of
// the kept settings not chosen yet). Each write stores the latest choice,
// so writes that finish out of order still leave the last one; a failed
// write is said in the page's notice.
func (a *App) saveSettings() {
	cur := a.currentSettings()
	a.settings.Store(&cur)
	st := a.store()
	if st == nil {
		return
	}
	if !a.settingsRead {
		a.settingsPending = true
		return
	}
	go func() {
		err := st.StoreUpdate(SettingsKey, func([]string) (map[string][]byte, []string, error) {
			b, err := json.Marshal(a.settings.Load())
			return map[string][]byte{SettingsKey: b}, nil, err
		})
		if err != nil {
			a.update(func() { a.noteErr("the setting could not be kept for the next visit: " + err.Error()) })
		}
	}()
}

// restoreSettings reads the settings kept in the store in the background
// and applies those the user did not choose meanwhile (each setting on its
// own), then writes the choices made during the read. A damaged record is
// said, and the defaults stay; a store that cannot be read at all is said
// by the annotation project's restore, not again here.
func (a *App) restoreSettings() {
	st := a.store()
	if st == nil {
		return
	}
	go func() {
		values, err := st.StoreRead(SettingsKey, SettingsKey)
		var kept Settings
		if b, ok := values[SettingsKey]; err == nil && ok {
			if jerr := json.Unmarshal(b, &kept); jerr != nil {
				a.update(func() {
					a.noteErr(fmt.Sprintf("the kept settings are damaged (%v): the defaults are used", jerr))
				})
				kept = Settings{}
			}
		}
		a.update(func() {
			if a.settingsChosen&chosenLetterKeys == 0 {
				a.Annotate.LetterKeysOff = kept.LetterKeysOff
			}
			if a.settingsChosen&chosenWorkClosed == 0 {
				a.WorkClosed = kept.WorkClosed
			}
			a.settingsRead = true
			if a.settingsPending {
				a.settingsPending = false
				a.saveSettings()
			}
		})
	}()
}

// SetWorkClosed closes or opens the Sentence tab's table of the work done
// (timings); the choice is kept for the next visit (on a projector, the
// open table pushed the drawing below the screen at every visit).
func (a *App) SetWorkClosed(closed bool) {
	if a.WorkClosed == closed {
		return
	}
	a.WorkClosed = closed
	a.settingsChosen |= chosenWorkClosed
	a.saveSettings()
}
