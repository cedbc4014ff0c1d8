package app

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/discspan/discspan/annotate"
)

// Store keeps the annotation project between visits (IndexedDB in the
// browser). A Platform that implements it gets its corpus saved after
// every change and restored at start-up.
type Store interface {
	// StoreRead returns, read together in one transaction, the value under
	// key (when there is one) and every value whose key begins with
	// prefix, by key.
	StoreRead(key, prefix string) (map[string][]byte, error)
	// StoreUpdate makes one atomic change: it lists the keys that begin
	// with prefix, calls decide with them, and removes decide's deletes and
	// writes its puts (in that order), all in one transaction that no
	// other writer (the app open in another tab) interleaves with; either
	// all of it is written or none. When decide returns an error, nothing
	// is written and StoreUpdate returns it. decide runs inside the
	// transaction: it must return at once, without blocking.
	StoreUpdate(prefix string, decide StoreDecision) error
}

// PersistentStore is a Store that can ask the browser to protect it: a
// browser clears the storage of a site that is not persistent when it is
// short of space (and some after weeks without a visit).
type PersistentStore interface {
	// StorePersist asks for the site's storage to be persistent, and
	// reports whether it is.
	StorePersist() (bool, error)
}

// StoreDecision decides a Store's update from the keys listed: what to
// write and what to remove, or an error to write nothing.
type StoreDecision func(keys []string) (puts map[string][]byte, deletes []string, err error)

// StoreKey is the key of the annotation project in the Store: the
// project's manifest, which names its chunks (see chunkPrefix).
const StoreKey = "annotate-project"

// DefaultSaveDelay is how long a save waits for more changes (debouncing)
// unless Options.SaveDelay says otherwise.
const DefaultSaveDelay = 300 * time.Millisecond

// store returns the platform's Store, nil when it has none.
func (a *App) store() Store {
	st, _ := a.plat.(Store)
	return st
}

// UnreadableKey is where a saved project that could not be read is kept
// (the next save replaces StoreKey), so that a project written by a newer
// version of the app, or damaged, is not lost: its manifest under
// UnreadableKey, or UnreadableKey-2, -3... when one is kept there already,
// and its chunks under that name and "/" (see setAside).
const UnreadableKey = StoreKey + "-unreadable"

// annRestore looks for a saved project in the background and opens it
// (unless a corpus was opened meanwhile). A project that cannot be read
// is set aside first.
func (a *App) annRestore() {
	st := a.store()
	if st == nil {
		a.Annotate.Restored = true
		return
	}
	go func() {
		values, err := st.StoreRead(StoreKey, chunkPrefix)
		moved := readIndexRecord(st)
		histories, _ := st.StoreRead(HistoryKey, HistoryKey) // a convenience: none when unreadable
		var sp savedProject
		var last [3][]chunk
		var damaged map[string]bool
		read, keep := err == nil, err != nil // whatever the store holds stays until it can be set aside
		kept := ""
		if err != nil {
			kept = " (whatever was saved stays in this browser: it is set aside under " + UnreadableKey + "... before anything replaces it)"
		} else {
			pace := a.newPacer()
			sp, last, _, err = decodeStored(values, func(done, total int) {
				pace.progress(func() {
					a.update(func() { a.Annotate.RestoreDone, a.Annotate.RestoreTotal = done, total })
				})
			})
			if err == nil {
				damaged = restoreHistories(sp.Corpus, writerOf(values), histories) // before anyone else sees the corpus
			}
			if err != nil {
				var name string
				if kerr := st.StoreUpdate(UnreadableKey, setAside(values, &name)); kerr != nil {
					keep = true
					kept = " (it could not be set aside yet: " + kerr.Error() + "; it is set aside under " + UnreadableKey + "... before anything replaces it)"
				} else {
					kept = " (it is kept in this browser under " + name + ")"
				}
			}
		}
		// No save runs before Restored is set (below).
		a.saveMu.Lock()
		a.keepStored, a.restoreRead, a.encoder.last, a.historiesDamaged = keep, read, last, damaged
		if read {
			a.seenWriter = writerOf(values)
			if err == nil {
				a.savedBase = snapshot(sp.Corpus)
			}
		}
		a.saveMu.Unlock()
		a.update(func() {
			s := &a.Annotate
			s.Restored = true
			switch {
			case err != nil:
				s.SaveErr = "could not restore the saved annotation: " + err.Error() + kept
			case sp.Corpus != nil && s.Corpus == nil:
				index := sp.Index
				if moved.Writer != "" && moved.Writer == writerOf(values) {
					index = moved.Index // moved to since the project was saved
				}
				a.AnnSetCorpus(sp.Corpus, sp.Gold, index)
				if sp.Other != nil {
					a.annSetOther(sp.Other)
				}
				s.Saved, s.savedIndex = s.Seq, s.Index // nothing new to save
				a.noteUnsaved()
				s.Msg = fmt.Sprintf("restored %s (%s)", sp.Corpus.Name, Count(len(sp.Corpus.Sentences), "sentence"))
				if sp.Other != nil {
					s.Msg += ", compared with " + sp.Other.Name
				}
			}
			if pi := s.PendingImport; pi != nil && s.Corpus == nil {
				a.annOpenPending(pi) // nothing was saved: no question
			}
			if s.Saved < s.Seq {
				a.annScheduleSave() // a change made while the restore ran
			}
		})
		a.annListKept()
	}()
}

// workSlice is how long long work runs between two pauses (pacer).
const workSlice = 10 * time.Millisecond

// pacer lets the page run during long work. In the browser Go runs on
// the page's one thread, and a goroutine that works for seconds (the
// import, the restore or the first save of a big corpus) freezes the page
// unless it pauses now and then: a pause (Platform.Yield) lets the page
// paint and answer input. A hidden page (where nothing is painted, and
// where the save on closing runs) does not pause.
type pacer struct {
	hidden *atomic.Bool
	yield  func()
	last   time.Time
	shown  time.Time // when progress was last shown (progress)
	pauses int       // pauses made
}

// newPacer returns a pacer whose first pause comes after a work slice.
func (a *App) newPacer() *pacer {
	return &pacer{hidden: &a.hidden, yield: a.yieldPage, last: time.Now()}
}

// pause lets the page run when the work has run for a slice since the
// last pause, unless the page is hidden.
func (p *pacer) pause() {
	if time.Since(p.last) < workSlice || p.hidden.Load() {
		return
	}
	p.yield()
	p.last = time.Now()
	p.pauses++
}

// progress calls show, which shows the work's progress (rendering the
// page), at most every progressEvery, then pauses.
func (p *pacer) progress(show func()) {
	if time.Since(p.shown) >= progressEvery {
		p.shown = time.Now()
		show()
	}
	p.pause()
}

// SetPageHidden records whether the page is hidden (the page calls it
// when its visibility changes).
func (a *App) SetPageHidden(hidden bool) { a.hidden.Store(hidden) }

// progressEvery is how often long work shows its progress: each update
// renders the page.
const progressEvery = 200 * time.Millisecond

// annScheduleSave saves the project shortly (the caller holds the lock);
// changes made meanwhile are saved together.
func (a *App) annScheduleSave() {
	if a.store() == nil || a.Annotate.saving || !a.Annotate.Restored {
		return // the restore saves what changed meanwhile once it ends
	}
	a.Annotate.saving = true
	delay := a.opts.SaveDelay
	if delay <= 0 {
		delay = DefaultSaveDelay
	}
	time.AfterFunc(delay, func() {
		a.env.Lock()
		a.Annotate.saving = false
		a.env.UnlockRender()
		_ = a.annSave() // annSaved shows the error
	})
}

// annSave writes the project to the store as it is now, in the calling
// goroutine (which must not hold the lock), unless that state is already
// saved; saves run one at a time, so that an older state never replaces a
// newer one. It returns the store's error, also shown in SaveErr.
func (a *App) annSave() error {
	st := a.store()
	if st == nil {
		return errors.New("no store")
	}
	a.saveMu.Lock()
	defer a.saveMu.Unlock()
	// The snapshot is taken with the lock held and encoded without it, so
	// that the lock is not held through the encoding and the store's
	// write. The encoder encodes only the chunks that changed, and the
	// store writes only those it lacks.
	a.env.Lock()
	s := &a.Annotate
	if s.Saved >= s.Seq && s.SaveErr == "" {
		// Only the sentence shown may have changed: it goes to the index
		// record, apart from the project, so that a reload comes back to
		// it; the project and its writer stay (another tab's next save
		// is no conflict), and a failure says nothing (nothing of the
		// work is lost).
		index, todo := s.Index, s.Corpus != nil && s.Index != s.savedIndex
		a.env.UnlockRender()
		if !todo {
			return nil // saved already
		}
		if writeIndexRecord(st, indexRecord{Writer: a.seenWriter, Index: index}) == nil {
			a.update(func() { a.Annotate.savedIndex = index })
		}
		return nil
	}
	if !s.Restored {
		a.env.UnlockRender()
		return errors.New("not yet: the saved work is being restored")
	}
	sp, seq := savedProject{Corpus: snapshot(s.Corpus), Gold: snapshot(s.Gold), Other: snapshot(s.Other), Index: s.Index}, s.Seq
	histories := keptHistories(s.Corpus, s.Index)
	a.env.UnlockRender()
	err := a.setAsideUnread(st)
	var p encoded
	if err == nil {
		a.encoder.pause = a.newPacer().pause
		p, err = a.encoder.encode(sp)
	}
	if err == nil {
		a.saves++
		w := saveWriter{key: fmt.Sprintf("%s%s.%d", writerPrefix, a.writerID, a.saves), seen: a.seenWriter, own: writerPrefix + a.writerID + "."}
		if err = a.saveProject(st, p, w, histories); err == nil {
			a.seenWriter, a.savedBase = w.key, sp.Corpus
		}
	}
	ask := err == nil && sp.Corpus != nil && !a.persistAsked
	if ask {
		a.persistAsked = true
	}
	a.update(func() { a.annSaved(seq, sp.Index, err) })
	if ask {
		go a.askPersistence(st) // it may wait for the user: not with saveMu held
	}
	return err
}

// Persistence says whether the browser protects the saved work from its
// clean-up.
type Persistence int

// The answers.
const (
	PersistUnknown Persistence = iota // not asked (yet), or no way to ask
	PersistGranted                    // the storage is persistent
	PersistRefused                    // the browser may clear it
	PersistFailed                     // asking failed (PersistErr says why)
)

// askPersistence asks the store to be protected from the browser's
// clean-up; annSave calls it once, after the first save of a corpus, when
// there is work to protect. AnnStorageNote says the outcome. The answer
// may wait for the user (a browser may ask), or never come.
func (a *App) askPersistence(st Store) {
	ps, ok := st.(PersistentStore)
	if !ok {
		return
	}
	persistent, err := ps.StorePersist()
	a.update(func() {
		s := &a.Annotate
		switch {
		case err != nil:
			s.Persistence, s.PersistErr = PersistFailed, err.Error()
		case persistent:
			s.Persistence = PersistGranted
		default:
			s.Persistence = PersistRefused
		}
	})
}

// AnnStorageNote warns when the browser may clear the saved work: its
// storage is not persistent (once asked); "" otherwise.
func (a *App) AnnStorageNote() string {
	switch s := &a.Annotate; s.Persistence {
	case PersistFailed:
		return "this browser may clear saved work (" + s.PersistErr + "): export the corpus now and then to keep it"
	case PersistRefused:
		return "this browser may clear saved work when it is short of space: export the corpus now and then to keep it"
	}
	return ""
}

// newWriterID returns a random id that names one app among the project's
// writers.
func newWriterID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b) // crypto/rand does not fail
	return hex.EncodeToString(b)
}

// AnnReplaceSaved saves this tab's work over the project that another tab
// saved meanwhile (see AnnotateState.SaveConflict): that save is taken as
// seen. A save by the other tab after it is refused again.
func (a *App) AnnReplaceSaved() {
	s := &a.Annotate
	if !s.SaveConflict {
		return
	}
	key := s.conflictKey
	go func() {
		a.saveMu.Lock()
		a.seenWriter = key
		a.saveMu.Unlock()
		_ = a.annSave() // annSaved shows the outcome
	}()
}

// setAsideUnread sets aside the project that the store may hold and that
// the restore could not read, or could not set aside (App.keepStored),
// before a save replaces it; while that fails, saves fail (the caller
// holds saveMu).
func (a *App) setAsideUnread(st Store) error {
	if !a.keepStored {
		return nil
	}
	values, err := st.StoreRead(StoreKey, chunkPrefix)
	var name string
	if err == nil && len(values) > 0 {
		err = st.StoreUpdate(UnreadableKey, setAside(values, &name))
	}
	if err != nil {
		return fmt.Errorf("the saved project that could not be restored is not replaced while it cannot be set aside (%w); export the corpus to keep this work", err)
	}
	if !a.restoreRead {
		// Nothing was seen at the restore: what is set aside now may be
		// replaced. Otherwise a save by another tab since the restore is
		// still refused (and asked about).
		a.seenWriter = writerOf(values)
	}
	a.keepStored = false
	if name != "" {
		// Say what was kept, and where: it may well be readable now.
		what := "the saved project that could not be restored"
		pace := a.newPacer()
		if sp, _, _, derr := decodeStored(values, func(int, int) { pace.pause() }); derr == nil && sp.Corpus != nil {
			what = fmt.Sprintf("the saved project %s (%s), which could not be restored,", sp.Corpus.Name, Count(len(sp.Corpus.Sentences), "sentence"))
		}
		a.update(func() { a.Annotate.Msg = what + " is kept in this browser under " + name })
		a.annListKept()
	}
	return nil
}

// snapshot is c.Snapshot(), nil for nil.
func snapshot(c *annotate.Corpus) *annotate.Corpus {
	if c == nil {
		return nil
	}
	return c.Snapshot()
}

// annSaved records the outcome of a save of change seq.
func (a *App) annSaved(seq, index int, err error) {
	s := &a.Annotate
	var other *otherTabError
	s.SaveConflict = errors.As(err, &other)
	if s.SaveConflict {
		s.conflictKey = other.key
	}
	switch {
	case s.SaveConflict:
		const others = "this page to go on from that tab's work (this tab's changes since are lost), " +
			"or replace the saved project with this tab's corpus (that tab's changes are lost)."
		choices := "Reload " + others
		if s.Corpus != nil { // AnnMergeSaved
			choices = "Merge: take that tab's changes and keep this tab's (where both tabs changed a sentence, this tab's analysis; " +
				"both tabs must hold the same sentences). Or reload " + others
		}
		s.SaveErr = "not saved: " + err.Error() + ". " + choices
		a.noteUnsaved()
		return
	case err != nil:
		s.SaveErr = "could not save: " + err.Error()
		a.noteUnsaved()
		return
	}
	s.SaveErr = ""
	s.Saved = max(s.Saved, seq)
	s.savedIndex = index
	a.noteUnsaved()
}

// noteUnsaved updates the lock-free copy of AnnUnsaved (the caller holds
// the lock).
func (a *App) noteUnsaved() { a.unsaved.Store(a.AnnUnsaved()) }

// AnnUnsavedNow is AnnUnsaved as of the last change or save, read without
// the lock: for the page's beforeunload handler.
func (a *App) AnnUnsavedNow() bool { return a.unsaved.Load() }

// AnnSaveNow saves the project at once, in the calling goroutine (which
// must not hold the lock); it returns the store's error.
func (a *App) AnnSaveNow() error { return a.annSave() }

// AnnUnsaved reports whether the corpus has changes that are not in the
// store: changes since the last save, or any corpus at all when nothing
// can be saved (no store, or the last save failed). The page warns before
// it is closed or reloaded then.
func (a *App) AnnUnsaved() bool {
	s := &a.Annotate
	if s.noteDraft != nil || s.pendingNote != nil {
		return true // a note being typed, or waiting for a re-parse
	}
	if s.Seq == 0 {
		return false // nothing changed since the start (or the restore)
	}
	if a.store() == nil {
		return s.Corpus != nil
	}
	return s.Saved < s.Seq || s.SaveErr != ""
}

// AnnFlush starts saving the project at once, without waiting for the
// debounce, when it has unsaved changes (the caller holds the lock): the
// page calls it when it is hidden or closed.
func (a *App) AnnFlush() {
	a.annSetNoteDraft()
	s := &a.Annotate
	if a.store() == nil || s.Saved >= s.Seq && (s.Corpus == nil || s.Index == s.savedIndex) {
		return
	}
	go func() { _ = a.annSave() }() // annSaved shows the error
}

// AnnSaveState says whether the work is kept in this browser.
func (a *App) AnnSaveState() string {
	s := &a.Annotate
	switch {
	case a.store() == nil:
		return "not saved: this page keeps nothing between visits (export the corpus to keep it)"
	case s.SaveErr != "" && s.Saved < s.Seq:
		return "NOT saved in this browser (export the corpus to keep it)"
	case s.Saved >= s.Seq:
		return "saved in this browser"
	}
	return "saving…"
}

// IndexKey is the key of the index record in the Store: the sentence
// shown, written when the annotator moves without an edit (an edit saves
// it with the project).
const IndexKey = "annotate-index"

// indexRecord is the sentence shown, for the project as its writer key
// names it (the project saved since makes it stale).
type indexRecord struct {
	Writer string `json:"writer"`
	Index  int    `json:"index"`
}

// writeIndexRecord writes r to the store.
func writeIndexRecord(st Store, r indexRecord) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return st.StoreUpdate(IndexKey, func([]string) (map[string][]byte, []string, error) {
		return map[string][]byte{IndexKey: b}, nil, nil
	})
}

// readIndexRecord returns the index record, the zero record when there is
// none or it cannot be read (the project's own index is used then).
func readIndexRecord(st Store) indexRecord {
	var r indexRecord
	values, err := st.StoreRead(IndexKey, IndexKey)
	if b, ok := values[IndexKey]; err == nil && ok {
		if json.Unmarshal(b, &r) != nil {
			return indexRecord{}
		}
	}
	return r
}
