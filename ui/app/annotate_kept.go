package app

import (
	"fmt"
	"slices"
	"strings"
)

// KeptProject is a saved project set aside under UnreadableKey (or -2,
// -3...): one that the restore could not read, or that was in the store
// when the restore could not read it.
type KeptProject struct {
	// Key is where it is kept.
	Key string
	// What describes it: its corpus and size, or why it cannot be read.
	What string
	// Readable is set when this version of the app can open it.
	Readable bool

	project savedProject
}

// keptProjects reads the projects kept aside from what
// StoreRead(UnreadableKey, UnreadableKey) returned, in the order of their
// keys; pause (when not nil) is called as they are decoded.
func keptProjects(values map[string][]byte, pause func()) []KeptProject {
	var names []string // the manifests' keys
	for k := range values {
		if !strings.Contains(strings.TrimPrefix(k, UnreadableKey), "/") {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	var out []KeptProject
	for _, name := range names {
		project := map[string][]byte{StoreKey: values[name]}
		for k, v := range values {
			if rest, ok := strings.CutPrefix(k, name+"/"); ok {
				project[chunkPrefix+rest] = v
			}
		}
		kp := KeptProject{Key: name}
		sp, _, _, err := decodeStored(project, func(int, int) {
			if pause != nil {
				pause()
			}
		})
		switch {
		case err != nil:
			kp.What = "cannot be read by this version of the app: " + err.Error()
		case sp.Corpus == nil:
			kp.What = "an empty project"
		default:
			kp.What, kp.Readable, kp.project = fmt.Sprintf("%s (%s)", sp.Corpus.Name, Count(len(sp.Corpus.Sentences), "sentence")), true, sp
		}
		out = append(out, kp)
	}
	return out
}

// annListKept lists the projects kept aside in the background
// (Annotate.Kept).
func (a *App) annListKept() {
	st := a.store()
	if st == nil {
		return
	}
	go func() {
		values, err := st.StoreRead(UnreadableKey, UnreadableKey)
		if err != nil {
			return // the list is a convenience: the projects stay where they are
		}
		kept := keptProjects(values, a.newPacer().pause)
		a.update(func() { a.Annotate.Kept = kept })
	}()
}

// AnnOpenKept opens the project kept aside under key; the next save makes
// it the saved project. While a corpus is open, it waits for the annotator
// to say that it replaces that corpus (AnnConfirmImport, AnnCancelImport),
// as a file imported then would. The copy kept aside stays until
// AnnDeleteKept.
func (a *App) AnnOpenKept(key string) {
	s := &a.Annotate
	i := slices.IndexFunc(s.Kept, func(k KeptProject) bool { return k.Key == key })
	switch {
	case i < 0 || !s.Kept[i].Readable:
		return
	case !s.Restored:
		s.Err = "wait until the saved project is restored before opening a project kept aside"
		return
	case a.annBusy():
		return
	}
	kp := s.Kept[i]
	if s.Corpus != nil && len(s.Corpus.Sentences) > 0 {
		a.annDropPending("a project kept aside was chosen")
		s.PendingImport = &PendingImport{Name: kp.project.Corpus.Name + ", kept aside under " + key, Corpus: kp.project.Corpus, kept: &kp}
		s.Msg, s.Err, s.ConfirmNew = "", "", false
		return
	}
	a.annOpenKept(kp)
}

// annOpenKept makes the project kept aside kp the one annotated, settling
// the question waiting, if any: answered when it is about kp, dropped
// otherwise.
func (a *App) annOpenKept(kp KeptProject) {
	s := &a.Annotate
	if pi := s.PendingImport; pi != nil && pi.kept != nil && pi.kept.Key == kp.Key {
		s.PendingImport = nil
	}
	a.annDropPending("a project kept aside was opened")
	sp := kp.project
	a.AnnSetCorpus(sp.Corpus.Snapshot(), snapshot(sp.Gold), sp.Index)
	if sp.Other != nil {
		a.annSetOther(sp.Other.Snapshot())
	}
	s.Msg = "opened " + kp.What + ", kept aside under " + kp.Key
}

// AnnDeleteKept removes the project kept aside under key from the store:
// a first call asks (Annotate.ConfirmDeleteKept), a second one deletes.
func (a *App) AnnDeleteKept(key string) {
	s := &a.Annotate
	if s.ConfirmDeleteKept != key {
		s.ConfirmDeleteKept = key
		return
	}
	s.ConfirmDeleteKept = ""
	st := a.store()
	if st == nil {
		return
	}
	go func() {
		err := st.StoreUpdate(UnreadableKey, func(keys []string) (map[string][]byte, []string, error) {
			var deletes []string
			for _, k := range keys {
				if k == key || strings.HasPrefix(k, key+"/") {
					deletes = append(deletes, k)
				}
			}
			return nil, deletes, nil
		})
		a.update(func() {
			if err != nil {
				s.Err = "could not delete the project kept aside: " + err.Error()
				return
			}
			s.Kept = slices.DeleteFunc(s.Kept, func(k KeptProject) bool { return k.Key == key })
			if pi := s.PendingImport; pi != nil && pi.kept != nil && pi.kept.Key == key {
				a.annDropPending("it was deleted")
			}
			s.Msg = "deleted the project kept aside under " + key
		})
	}()
}
