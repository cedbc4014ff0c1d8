package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/discspan/discspan/annotate"
)

// Store keeps the annotation project between visits (IndexedDB in the
// browser). A Platform that implements it gets its corpus saved after
// every change and restored at start-up.
type Store interface {
	// StoreLoad returns the value saved under key; ok is false when there
	// is none.
	StoreLoad(key string) (data []byte, ok bool, err error)
	// StoreSave saves data under key.
	StoreSave(key string, data []byte) error
}

// StoreKey is the key of the annotation project in the Store.
const StoreKey = "annotate-project"

// saveDelay is how long a save waits for more changes (debouncing).
const saveDelay = 300 * time.Millisecond

// projectVersion is the version of the saved project envelope.
const projectVersion = 1

// project is the saved form of the annotation tab: the corpus (annotate's
// JSON), its reference analyses, and the sentence shown.
type project struct {
	Version int             `json:"version"`
	Index   int             `json:"index"`
	Corpus  json.RawMessage `json:"corpus"`
	Gold    json.RawMessage `json:"gold,omitempty"`
}

// encodeProject writes the corpus, its reference analyses (may be nil) and
// the sentence shown.
func encodeProject(c, gold *annotate.Corpus, index int) ([]byte, error) {
	var buf bytes.Buffer
	if err := c.Save(&buf); err != nil {
		return nil, err
	}
	p := project{Version: projectVersion, Index: index, Corpus: buf.Bytes()}
	if gold != nil {
		var g bytes.Buffer
		if err := gold.Save(&g); err != nil {
			return nil, err
		}
		p.Gold = g.Bytes()
	}
	return json.Marshal(p)
}

// decodeProject reads what encodeProject wrote.
func decodeProject(data []byte) (c, gold *annotate.Corpus, index int, err error) {
	var p project
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, nil, 0, fmt.Errorf("saved project: %w", err)
	}
	if p.Version != projectVersion {
		return nil, nil, 0, fmt.Errorf("saved project: version %d, want %d", p.Version, projectVersion)
	}
	if len(p.Corpus) == 0 {
		return nil, nil, 0, errors.New("saved project: no corpus")
	}
	if c, err = annotate.Load(bytes.NewReader(p.Corpus)); err != nil {
		return nil, nil, 0, fmt.Errorf("saved project: %w", err)
	}
	if len(p.Gold) > 0 {
		if gold, err = annotate.Load(bytes.NewReader(p.Gold)); err != nil {
			return nil, nil, 0, fmt.Errorf("saved project: reference trees: %w", err)
		}
		if len(gold.Sentences) != len(c.Sentences) {
			gold = nil
		}
	}
	return c, gold, p.Index, nil
}

// store returns the platform's Store, nil when it has none.
func (a *App) store() Store {
	st, _ := a.plat.(Store)
	return st
}

// annRestore looks for a saved project in the background and opens it
// (unless a corpus was opened meanwhile).
func (a *App) annRestore() {
	st := a.store()
	if st == nil {
		a.Annotate.Restored = true
		return
	}
	go func() {
		data, ok, err := st.StoreLoad(StoreKey)
		var c, gold *annotate.Corpus
		index := 0
		if err == nil && ok {
			c, gold, index, err = decodeProject(data)
		}
		a.update(func() {
			s := &a.Annotate
			s.Restored = true
			switch {
			case err != nil:
				s.SaveErr = "could not restore the saved annotation: " + err.Error()
			case c != nil && s.Corpus == nil:
				a.AnnSetCorpus(c, gold, index)
				s.Saved = s.Seq // nothing new to save
				s.Msg = fmt.Sprintf("restored %s (%d sentences)", c.Name, len(c.Sentences))
			}
		})
	}()
}

// annScheduleSave saves the project shortly (the caller holds the lock);
// changes made meanwhile are saved together.
func (a *App) annScheduleSave() {
	if a.store() == nil || a.Annotate.saving {
		return
	}
	a.Annotate.saving = true
	time.AfterFunc(saveDelay, func() {
		a.env.Lock()
		a.Annotate.saving = false
		data, seq, err := a.annEncode()
		a.env.UnlockRender()
		if err == nil && data != nil {
			err = a.store().StoreSave(StoreKey, data)
		}
		a.update(func() { a.annSaved(seq, err) })
	})
}

// annEncode encodes the project (the caller holds the lock); data is nil
// without a corpus.
func (a *App) annEncode() (data []byte, seq int, err error) {
	s := &a.Annotate
	if s.Corpus == nil {
		return nil, s.Seq, nil
	}
	data, err = encodeProject(s.Corpus, s.Gold, s.Index)
	return data, s.Seq, err
}

// annSaved records the outcome of a save of change seq.
func (a *App) annSaved(seq int, err error) {
	s := &a.Annotate
	if err != nil {
		s.SaveErr = "could not save: " + err.Error()
		return
	}
	s.SaveErr = ""
	s.Saved = max(s.Saved, seq)
}

// AnnSaveNow saves the project at once, in the calling goroutine (which
// must not hold the lock); it returns the store's error.
func (a *App) AnnSaveNow() error {
	st := a.store()
	if st == nil {
		return errors.New("no store")
	}
	a.env.Lock()
	data, seq, err := a.annEncode()
	a.env.UnlockRender()
	if err == nil && data != nil {
		err = st.StoreSave(StoreKey, data)
	}
	a.update(func() { a.annSaved(seq, err) })
	return err
}
