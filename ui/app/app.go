package app

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/parser"
)

// Options are the app's start-up settings (the page's URL parameters).
type Options struct {
	// SaveDelay is how long a save of the annotation waits for more
	// changes (0: DefaultSaveDelay).
	SaveDelay time.Duration
	// Backend is parser.BackendAuto (""), parser.BackendCPU or parser.BackendWebGPU.
	Backend string
	// Model names the model to load; "" means the server's first.
	Model string
	// Variant is the initial decoder variant; "" means n3.
	Variant string
	// Text is the initial sentence; "" means the first example.
	Text string
	// Workers is where an ensemble's models score (parser.LoadOptions'
	// Workers: 0 as the cores allow, 1 one after the other, 2 or more each
	// in a worker of its own).
	Workers int
	// ListTimeout bounds the wait for the model list (0:
	// DefaultListTimeout), DownloadStall a weights download that receives
	// nothing (0: DefaultDownloadStall).
	ListTimeout, DownloadStall time.Duration
}

// Tabs of the app.
const (
	TabParse    = "parse"
	TabTreebank = "treebank"
)

// App is the whole state of the browser app. Its exported fields are read
// by the components; change them only through the methods.
type App struct {
	env    Env
	plat   Platform
	opts   Options
	engine Engine

	// Model is the model being loaded or in use.
	Model ModelState
	// Tab is the visible tab (TabParse, TabTreebank or TabTeach).
	Tab string
	// Parse is the sentence tab.
	Parse ParseState
	// Teach is the teaching tab.
	Teach TeachState
	// Annotate is the annotation tab.
	Annotate AnnotateState
	// Bank is the open treebank, nil before one is opened.
	Bank *Bank
	// Job is the work in progress, nil when idle.
	Job *Job
	// Focus is the node shown in the details panel: hovered, else
	// selected.
	Hover, Selected Focus
	// Zoom scales the drawings (1 is the natural size).
	Zoom float64
	// WorkClosed is set when the reader has closed the Sentence tab's
	// table of the work done (SetWorkClosed).
	WorkClosed bool
	// Notice is a transient message (an export written, an error).
	Notice string
	// NoticeErr marks Notice as an error (shown in the error style).
	NoticeErr bool

	loadGen int // bumped by every load, so that stale loads give up
	// loadCancel cancels the running load's downloads and waits (the next
	// Start calls it).
	loadCancel context.CancelFunc
	// engineLoad lets one load at a time give the engine its model: a
	// load checks, holding it, that it is still the newest.
	engineLoad sync.Mutex
	// engineFailed is set when the engine could not start (the parsing
	// worker failed): the next Start makes a new one.
	engineFailed bool
	// saveMu orders the annotation project's saves: one at a time, each
	// writing the project as it is when its turn comes.
	saveMu sync.Mutex
	// encoder encodes the project for the store (guarded by saveMu).
	encoder projectEncoder
	// keepStored is set when the store may hold a project that the
	// restore could not read, or could not set aside: the next save sets
	// it aside first (guarded by saveMu).
	keepStored bool
	// writerID names this app among the project's writers, saves counts
	// its saves, and seenWriter is the writer key of the project as this
	// app last read or saved it, "" for none (see writerPrefix; guarded by
	// saveMu).
	writerID, seenWriter string
	saves                int
	// savedBase is the corpus as this app last read it from the store or
	// wrote it there (nil for none): a merge with another tab's save
	// tells by it which sentences each tab changed (guarded by saveMu;
	// see annotate_merge.go).
	savedBase *annotate.Corpus
	// restoreRead is set when the restore read the store (whether or not
	// it could decode what it read; guarded by saveMu).
	restoreRead bool
	// persistAsked is set once the store was asked to be persistent
	// (guarded by saveMu).
	persistAsked bool
	// historiesKept are the sentences' undo histories as this app last
	// encoded and wrote them, by sentence number, and historyEncoder
	// keeps their states' encodings (guarded by saveMu; see
	// annotate_history.go).
	historiesKept  map[int]keptHistory
	historyEncoder annotate.HistoryEncoder
	// historiesDamaged are the history records and states the restore
	// found damaged (not what their keys say): the next save writes them
	// again, should a kept history name them (guarded by saveMu).
	historiesDamaged map[string]bool
	// settings are the user's settings as last chosen, written to the
	// store by the goroutine saveSettings starts (see settings.go).
	settings atomic.Pointer[Settings]
	// settingsRead is set once the kept settings were read (or found
	// unreadable); settingsPending, when a choice made before then waits
	// to be written (both guarded by the lock).
	settingsRead, settingsPending bool
	// settingsChosen marks the settings chosen (chosenLetterKeys...;
	// guarded by the lock).
	settingsChosen int
	// unsaved mirrors AnnUnsaved, for the page's beforeunload handler,
	// which must answer without waiting for the lock.
	unsaved atomic.Bool
	// bankBatch is the treebank tab's "Parse all" job while it runs
	// (read without the lock by the page's beforeunload handler).
	bankBatch atomic.Pointer[Job]
	// hidden is set while the page is hidden (SetPageHidden).
	hidden atomic.Bool
}

// New returns the app; call Start to load the model.
func New(env Env, plat Platform, opts Options) *App {
	a := &App{env: env, plat: plat, opts: opts, Tab: TabParse, Zoom: 1}
	a.writerID = newWriterID()
	a.Parse.Variant = decode.N3
	if v, err := decode.ParseVariant(opts.Variant); err == nil {
		a.Parse.Variant = v
	}
	a.Parse.Other = decode.N5
	if a.Parse.Variant == decode.N5 {
		a.Parse.Other = decode.N3
	}
	a.Parse.Text = opts.Text
	if a.Parse.Text == "" {
		a.Parse.Text = Examples[0].Text
	}
	a.Parse.retokenize()
	a.Model.Backend = opts.Backend
	if a.Model.Backend == "" {
		a.Model.Backend = parser.BackendAuto
	}
	a.Annotate.Node = -1
	a.annRestore()
	a.restoreSettings()
	return a
}

// SetTab shows a tab.
func (a *App) SetTab(tab string) {
	switch tab {
	case TabParse, TabTreebank:
		a.Tab = tab
		a.teachStopPlay()
		a.bankJobDone() // a sentence shown there waits for its parse
	case TabAnnotate:
		a.Tab = tab
		a.teachStopPlay()
		a.annSetTab()
	case TabTeach:
		a.Tab = tab
		a.teachInit()
		a.teachFindUses()
	}
	a.Hover = Focus{}
}

// Variants lists the decoder variants by name, cheapest first.
func Variants() []string {
	out := make([]string, len(decode.Variants))
	for i, v := range decode.Variants {
		out[i] = v.String()
	}
	return out
}

// update runs f with the lock held and asks for a render.
func (a *App) update(f func()) {
	a.env.Lock()
	defer a.env.UnlockRender()
	f()
}

// note shows a transient message; the caller holds the lock.
func (a *App) note(msg string) { a.Notice, a.NoticeErr = msg, false }

// noteErr shows a transient error message; the caller holds the lock.
func (a *App) noteErr(msg string) { a.Notice, a.NoticeErr = msg, true }
