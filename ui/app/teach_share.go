package app

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/teach"
)

// Keys of the page URL's fragment that the teaching tab reads: "#tree=LINK"
// shows a shared tree, "#teach" only opens the tab ("#exercise=..." opens
// an exercise: fragmentExercise).
const (
	fragmentTree  = "tree"
	fragmentTeach = "teach"
)

// ErrNoTreeInLink is wrapped by ParseFragment's error for a fragment with
// an empty tree key.
var ErrNoTreeInLink = errors.New("the link holds no tree")

// Fragment is what a page URL's fragment asks of the app.
type Fragment struct {
	// Teach is set when the fragment asks for the teaching tab (a tree
	// link does too).
	Teach bool
	// Tree is the shared tree's link (teach.EncodeTree), "" for none.
	Tree string
	// Exercise is a shared exercise attempt (teach.EncodeAttempt) or an
	// exercise's id, "" for none.
	Exercise string
}

// ParseFragment reads a URL fragment (with or without its "#"): keys
// separated by "&", "tree=LINK" for a shared tree, "exercise=ATTEMPT" for
// an exercise and "teach" for the tab. Unknown keys are ignored; ok is
// false when the fragment asks for nothing. A tree key without a value is
// an error wrapping ErrNoTreeInLink, an exercise key without one an error
// wrapping ErrNoAttemptInLink.
func ParseFragment(frag string) (f Fragment, ok bool, err error) {
	frag = strings.TrimPrefix(frag, "#")
	// A link whose "=" a mail client, chat or redirector percent-encoded,
	// once or twice ("#tree%3Dt2...", "#tree%253Dt2..."), holds its keys
	// encoded whole; one cut short may end inside an escape ("%2").
	cut := false
	for range 3 {
		if strings.Contains(frag, "=") || !strings.Contains(frag, "%") {
			break
		}
		whole := cutEscape(frag)
		v, uerr := url.PathUnescape(whole)
		if uerr != nil {
			break
		}
		frag, cut = v, cut || whole != frag
	}
	defer func() {
		// A fragment that names a key but reads as none, or that was cut
		// inside an escape, is a damaged link, not one that asks for
		// nothing (or for a bare exercise, its attempt lost).
		damaged := !ok && err == nil && (strings.HasPrefix(frag, fragmentTree+"%") || strings.HasPrefix(frag, fragmentExercise+"%"))
		if !damaged && !(cut && err == nil) {
			return
		}
		f.Teach, ok = true, true
		if f.Exercise != "" || strings.HasPrefix(frag, fragmentExercise) {
			err = fmt.Errorf("exercise link: it was cut short or damaged: %w", ErrNoAttemptInLink)
		} else {
			err = fmt.Errorf("tree link: it was cut short or damaged: %w", ErrNoTreeInLink)
		}
	}()
	for _, part := range strings.Split(frag, "&") {
		key, value, hasValue := strings.Cut(part, "=")
		switch key {
		case fragmentTeach:
			f.Teach = true
		case fragmentTree:
			f.Teach = true
			// Links pasted through mail clients may come back
			// percent-encoded; the encoding itself never needs it.
			if v, uerr := url.PathUnescape(value); uerr == nil {
				value = v
			}
			if !hasValue || value == "" {
				return f, true, fmt.Errorf("tree link: %w", ErrNoTreeInLink)
			}
			f.Tree = value
		case fragmentExercise:
			f.Teach = true
			if v, uerr := url.PathUnescape(value); uerr == nil {
				value = v
			}
			if !hasValue || value == "" {
				return f, true, fmt.Errorf("exercise link: %w", ErrNoAttemptInLink)
			}
			f.Exercise = value
		}
	}
	return f, f.Teach, nil
}

// cutEscape drops an escape cut short at the end of s ("...%2", "...%").
func cutEscape(s string) string {
	if i := strings.LastIndexByte(s, '%'); i >= 0 && len(s)-i < 3 {
		return s[:i]
	}
	return s
}

// linkHint is what a notice about a damaged link adds: how it may have
// come about and what to do. A link of a newer version needs none.
func linkHint(err error, pick string) string {
	if errors.Is(err, teach.ErrNewerLink) {
		return "."
	}
	return ". The link may have been cut short or changed when it was copied; ask for it again, or pick " + pick + " below."
}

// ShareFragment returns the URL fragment ("#tree=...") that shows t.
func ShareFragment(t *tree.Tree) (string, error) {
	link, err := teach.EncodeTree(t)
	if err != nil {
		return "", fmt.Errorf("share: %w", err)
	}
	return "#" + fragmentTree + "=" + link, nil
}

// OpenFragment acts on the page URL's fragment (at start-up, or when it
// changes): a tree link opens the teaching tab with the tree shown in the
// comparison (and, when short enough, in the stepper); an exercise link
// opens the exercise with the student's tree, checked; a damaged link
// opens the tab with a notice saying what is wrong. It reports whether the
// fragment asked for anything.
func (a *App) OpenFragment(frag string) bool {
	f, ok, err := ParseFragment(frag)
	if !ok {
		return false
	}
	a.SetTab(TabTeach)
	t := &a.Teach
	t.LinkErr, t.Exercise.LinkErr = "", ""
	if errors.Is(err, ErrNoAttemptInLink) {
		a.TeachSetSection(TeachSectionExercises)
		t.Exercise.Opened++
		t.Exercise.LinkErr = "This exercise link cannot be opened: " + err.Error() + linkHint(err, "an exercise")
		return true
	}
	if err == nil && f.Exercise != "" {
		a.TeachSetSection(TeachSectionExercises)
		a.openExercise(f.Exercise)
	}
	if err == nil && f.Tree == "" {
		return true
	}
	var shared *tree.Tree
	if err == nil {
		shared, err = teach.DecodeTree(f.Tree)
	}
	if err == nil {
		err = shared.Validate()
	}
	if err == nil && shared.Len() == 0 {
		err = errors.New("the shared tree has no words")
	}
	a.TeachSetSection(TeachSectionVariants)
	if err != nil {
		t.LinkErr = "This link's tree cannot be shown: " + strings.TrimPrefix(err.Error(), "teach: ") + linkHint(err, "an example")
		return true
	}
	t.Opened++
	title := "Shared tree"
	if shared.ID != "" {
		title += " " + shared.ID
	}
	sh := &ShownTree{Title: title, Example: -1, Tree: shared}
	if i := a.galleryIndex(shared); i >= 0 {
		// A gallery example as it is: shown with its title and
		// explanation, as the teacher who sent it saw it.
		sh = a.exampleShown(i)
	}
	a.teachShow(sh)
	if sh.Tree.Len() <= teach.MaxStepperWords {
		a.teachLoadTree(sh.Title, sh.Tree, t.Stepper.Variant)
	}
	return true
}

// TeachShare returns the fragment that shares the tree of the comparison
// view and remembers it in Teach.Link; "" (with Teach.LinkErr set) when
// there is nothing to share.
func (a *App) TeachShare() string {
	t := &a.Teach
	if t.Shown == nil || t.Shown.Tree == nil {
		return ""
	}
	frag, err := ShareFragment(t.Shown.Tree)
	if err != nil {
		t.LinkErr = err.Error()
		return ""
	}
	t.Link, t.LinkErr = frag, ""
	return frag
}

// galleryIndex returns the gallery example that t is (same id, same
// tree, as a link carries it: ShareFragment), or -1.
func (a *App) galleryIndex(t *tree.Tree) int {
	link, err := ShareFragment(t)
	if err != nil {
		return -1
	}
	for i, e := range a.Teach.Gallery {
		if e.tree == nil || e.Example.ID != t.ID {
			continue
		}
		if l, err := ShareFragment(e.tree); err == nil && l == link {
			return i
		}
	}
	return -1
}
