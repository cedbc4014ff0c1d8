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

// currentSettings returns the settings as the state holds them; the caller
// holds the lock.
func (a *App) currentSettings() Settings {
	return Settings{LetterKeysOff: a.Annotate.LetterKeysOff, WorkClosed: a.WorkClosed}
}

// saveSettings writes the settings to the store in the background (the
// caller holds the lock). Each write stores the latest choice, so writes
// that finish out of order still leave the last one; a failed write is
// shown as the annotation tab's error.
func (a *App) saveSettings() {
	cur := a.currentSettings()
	a.settings.Store(&cur)
	st := a.store()
	if st == nil {
		return
	}
	go func() {
		err := st.StoreUpdate(SettingsKey, func([]string) (map[string][]byte, []string, error) {
			b, err := json.Marshal(a.settings.Load())
			return map[string][]byte{SettingsKey: b}, nil, err
		})
		if err != nil {
			a.update(func() { a.Annotate.Err = "the setting could not be kept for the next visit: " + err.Error() })
		}
	}()
}

// restoreSettings reads the settings kept in the store in the background
// and applies them, unless the user chose others meanwhile. A damaged
// record is said, and the defaults stay; a store that cannot be read at
// all is said by the annotation project's restore, not again here.
func (a *App) restoreSettings() {
	st := a.store()
	if st == nil {
		return
	}
	go func() {
		values, err := st.StoreRead(SettingsKey, SettingsKey)
		if err != nil {
			return // a store that cannot be read: the project's restore says so
		}
		var kept Settings
		b, ok := values[SettingsKey]
		if ok {
			err = json.Unmarshal(b, &kept)
		}
		a.update(func() {
			switch {
			case a.settings.Load() != nil:
				// Chosen during the read: the choice stands.
			case err != nil:
				a.noteErr(fmt.Sprintf("the kept settings are damaged (%v): the defaults are used", err))
			default:
				a.Annotate.LetterKeysOff, a.WorkClosed = kept.LetterKeysOff, kept.WorkClosed
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
	a.saveSettings()
}
