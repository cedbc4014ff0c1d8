package app

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/server/api"
)

// Phase is a step of loading the model.
type Phase string

// The phases, in order; Failed and NoModel end a load.
const (
	PhaseStarting    Phase = "starting"
	PhaseListing     Phase = "listing"
	PhaseDownloading Phase = "downloading"
	PhaseVerifying   Phase = "verifying"
	PhaseLoading     Phase = "loading"
	PhaseReady       Phase = "ready"
	PhaseFailed      Phase = "failed"
	PhaseNoModel     Phase = "nomodel"
)

// ModelState is the model being loaded or in use.
type ModelState struct {
	Phase Phase
	// Models is the server's model list; Current the chosen one.
	Models  []api.Model
	Current api.Model
	// Backend is the backend asked for (parser.BackendAuto, ...).
	Backend string
	// Done and Total count the downloaded bytes (Total -1: unknown).
	Done, Total int64
	// FromCache is set when the weights came from the browser's cache,
	// ListFromCache when the model list did (offline).
	FromCache, ListFromCache bool
	// Info describes the loaded model and backend.
	Info *parser.Info
	// Language is the language of the model's training data, from its
	// metadata (see parser.Describe); "" when unknown.
	Language string
	// known reports whether the model's vocabulary has a word (nil until
	// a model is loaded).
	known func(string) bool
	// Err says why the load failed (Phase Failed).
	Err string
	// Note is a remark that does not stop the app (the cache refused the
	// weights, say).
	Note string
	// ReadyAt is the time from the page's start to the model being ready;
	// FetchNs the time to get the weights (download or cache).
	ReadyAt time.Duration
	FetchNs int64
	// Step says what the phase is doing (PhaseLoading: StepWorker, then
	// the engine's steps, parser.LoadReading and parser.LoadBackend);
	// Elapsed is the time the phase or step has taken so far, refreshed
	// twice a second while the model loads.
	Step    string
	Elapsed time.Duration

	stepStart time.Duration // plat.Since() when the step began
}

// StepWorker is the step of PhaseLoading that waits for the parsing
// worker to start.
const StepWorker = "starting the parsing worker"

// readier is an Engine that starts in the background (ui/browser's
// WorkerEngine): WaitReady waits for it.
type readier interface {
	WaitReady(ctx context.Context) error
}

// setPhase enters a phase (and step) of the load, restarting the clock
// of Elapsed when either changes; the caller holds the lock.
func (a *App) setPhase(p Phase, step string) {
	m := &a.Model
	if m.Phase != p || m.Step != step {
		m.stepStart, m.Elapsed = a.plat.Since(), 0
	}
	m.Phase, m.Step = p, step
}

// loading reports whether a phase is a step of a load in progress.
func loading(p Phase) bool {
	switch p {
	case PhaseStarting, PhaseListing, PhaseDownloading, PhaseVerifying, PhaseLoading:
		return true
	}
	return false
}

// tickLoad refreshes Model.Elapsed twice a second while load gen runs.
func (a *App) tickLoad(gen int) {
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	for range t.C {
		done := false
		a.update(func() {
			m := &a.Model
			if done = a.loadGen != gen || !loading(m.Phase); !done {
				m.Elapsed = a.plat.Since() - m.stepStart
			}
		})
		if done {
			return
		}
	}
}

// Ready reports whether sentences can be parsed.
func (m *ModelState) Ready() bool { return m.Phase == PhaseReady }

// NotUsed says why the other backend does not score: why not WebGPU
// when the CPU scores (no adapter, a software adapter, the self-check
// refusing the GPU, asked for, slower), why not the CPU when WebGPU does;
// "" before the model is loaded.
func (m *ModelState) NotUsed() string {
	i := m.Info
	switch {
	case i == nil:
		return ""
	case i.GPU:
		return "the CPU is not used: " + i.Choice
	}
	return "WebGPU is not used: " + i.Choice
}

// ScoredBy says which backend scored a parse ("cpu", or "webgpu: " and
// the adapter), and when its scores were those of the sentence's previous
// parse.
func ScoredBy(p *parser.Parse) string {
	switch {
	case p == nil:
		return ""
	case p.Reused:
		return p.Backend + " (scores of the previous parse reused)"
	}
	return p.Backend
}

// Percent is the download progress in percent (0 when unknown).
func (m *ModelState) Percent() int {
	if m.Total <= 0 {
		return 0
	}
	return int(100 * m.Done / m.Total)
}

// modelsCacheKey is where the last model list is kept, for offline starts.
const modelsCacheKey = "/discspan/models.json"

// Start loads the model in the background: the model list, the weights
// (from the cache, or downloaded with progress and checked against the
// list's SHA-256, then cached), then the engine. A job still running (a
// long parse, a treebank) is cancelled first: its results would belong to
// the model being replaced, and the engine would finish it before
// loading.
//
// A load still running is abandoned: its downloads and waits are
// cancelled, and it gives the engine no model. What the model bar showed
// of the model before (its backend, its language) goes until the new one
// is ready.
func (a *App) Start() {
	a.Cancel()
	if a.loadCancel != nil {
		a.loadCancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	a.loadCancel = cancel
	a.loadGen++
	gen := a.loadGen
	a.setPhase(PhaseListing, "")
	a.Model.Err, a.Model.Note = "", ""
	a.Model.Done, a.Model.Total = 0, -1
	a.Model.Info, a.Model.Language, a.Model.known = nil, "", nil
	if a.engine != nil && a.engineFailed {
		// The engine could not start (the worker's script did not load,
		// say): a retry starts a new one.
		a.engine.Close()
		a.engine = nil
	}
	a.engineFailed = false
	if a.engine == nil {
		// The engine (a Web Worker, which compiles its copy of the app)
		// starts while the model list and the weights are fetched.
		a.engine = a.plat.NewEngine()
	}
	go a.load(ctx, gen)
	go a.tickLoad(gen)
}

// Retry starts loading again after a failure.
func (a *App) Retry() { a.Start() }

// SetBackend reloads the model with another backend.
func (a *App) SetBackend(b string) {
	if b == a.Model.Backend {
		return
	}
	a.Model.Backend = b
	a.Start()
}

// SetModel loads another model of the list (the one asked for last, also
// while the list is being fetched). The trees shown, the previous model's,
// go.
func (a *App) SetModel(name string) {
	asked := a.opts.Model
	if asked == "" {
		asked = a.Model.Current.Name // the list's first, by default
	}
	if name == asked && a.Model.Phase != PhaseFailed {
		return
	}
	a.opts.Model = name
	a.clearParse()
	a.Start()
}

// load is Start's goroutine; gen identifies it, so that a newer load makes
// it give up, and the newer Start cancels ctx.
func (a *App) load(ctx context.Context, gen int) {
	fail := func(format string, args ...any) {
		a.update(func() {
			if a.loadGen == gen {
				a.Model.Phase, a.Model.Err = PhaseFailed, fmt.Sprintf(format, args...)
			}
		})
	}
	stale := false
	step := func(f func()) bool {
		a.update(func() {
			stale = a.loadGen != gen
			if !stale {
				f()
			}
		})
		return !stale
	}

	list, fromCache, err := a.modelList(ctx)
	if err != nil {
		fail("could not get the model list: %v", err)
		return
	}
	var m api.Model
	if !step(func() {
		for _, c := range list {
			if c.Name == a.opts.Model || (a.opts.Model == "" && m.Name == "") {
				m = c
			}
		}
		if m.Name == "" && len(list) > 0 {
			// A link, or a choice kept from before, names a model the
			// server no longer offers: its first one, said so.
			a.Model.Note = fmt.Sprintf("the server no longer offers model %q: this is %s", a.opts.Model, list[0].Name)
			a.opts.Model, m = "", list[0]
		}
		a.Model.Models, a.Model.ListFromCache = list, fromCache
		a.Model.Current = m
		if len(list) == 0 {
			a.Model.Phase = PhaseNoModel
		}
	}) || m.Name == "" {
		return
	}

	start := time.Now()
	data, cached, err := a.weightsFile(ctx, m, func(done, total int64) {
		step(func() { a.setPhase(PhaseDownloading, ""); a.Model.Done, a.Model.Total = done, total })
	}, func() { step(func() { a.setPhase(PhaseVerifying, "") }) })
	if err != nil {
		fail("%v", err)
		return
	}
	fetched := time.Since(start)
	var eng Engine
	if !step(func() {
		a.setPhase(PhaseLoading, StepWorker)
		a.Model.FromCache, a.Model.FetchNs = cached, int64(fetched)
		eng = a.engine
	}) {
		return
	}
	if r, ok := eng.(readier); ok {
		if err := r.WaitReady(ctx); err != nil {
			a.update(func() {
				if a.loadGen == gen && ctx.Err() == nil {
					a.engineFailed = true // Retry starts a new engine
				}
			})
			fail("could not start the parsing worker: %v", err)
			return
		}
	}
	// One load at a time gives the engine its model, and only the newest:
	// a load abandoned while the worker started must not replace the one
	// chosen after it (nor cancel it by restarting the worker).
	a.engineLoad.Lock()
	var backend string
	if !step(func() { backend = a.Model.Backend }) {
		a.engineLoad.Unlock()
		return
	}
	info, err := eng.Load(ctx, data, m.Name, parser.LoadOptions{Backend: backend, MaxBytes: parser.DefaultMaxBytes, Workers: a.opts.Workers,
		Progress: func(s string) {
			a.update(func() {
				if a.loadGen == gen && a.Model.Phase == PhaseLoading { // not after the load ended
					a.setPhase(PhaseLoading, s)
				}
			})
		}})
	a.engineLoad.Unlock()
	if err != nil {
		a.update(func() {
			if a.loadGen == gen && ctx.Err() == nil {
				// The parsing worker may have died in it (out of memory):
				// Retry, or another model, starts a new one.
				a.engineFailed = true
			}
		})
		fail("could not load the model %s: %v", m.Name, err)
		return
	}
	// The vocabulary and language, from the header only (the engine,
	// perhaps in a worker, has the rest).
	lang, known := parser.Describe(data, m.Name)
	step(func() {
		a.Model.Language, a.Model.known = lang, known
		a.setPhase(PhaseReady, "")
		a.Model.Info = info
		a.Model.ReadyAt = a.plat.Since()
		a.bankModelReady()
	})
	if !fromCache {
		a.dropUnlistedWeights(list)
	}
}

// dropUnlistedWeights drops from the cache the weights of models the
// server no longer lists (a weight file's URL names its SHA-256, so every
// new version of a model, every model trained and deleted, is another
// URL): they cannot be chosen any more, and would otherwise stay in the
// browser's storage for good.
func (a *App) dropUnlistedWeights(list []api.Model) {
	keep := []string{modelsCacheKey}
	for _, m := range list {
		keep = append(keep, m.URL)
	}
	if _, err := a.plat.CacheRetain(keep); err != nil {
		a.update(func() {
			a.Model.Note = "the browser did not drop the weights of models no longer offered (" + err.Error() + ")"
		})
	}
}

// modelList fetches the server's model list and keeps a copy in the cache;
// offline, or when the answer is no model list (a captive portal's page,
// a proxy's error), it returns the copy.
func (a *App) modelList(ctx context.Context) (list []api.Model, fromCache bool, err error) {
	// A connection that is up but answers nothing (a portal holding it, a
	// dead mobile link) must not keep the tab waiting when a copy is kept:
	// that is used after ListTimeout. Without one, a slow first visit
	// waits (the download's stall watchdog bounds what follows).
	lctx, cancel := context.WithCancelCause(ctx)
	if _, kept := a.plat.CacheLoad(modelsCacheKey); kept {
		limit := cmp.Or(a.opts.ListTimeout, DefaultListTimeout)
		var stop context.CancelFunc
		lctx, stop = context.WithTimeoutCause(lctx, limit, fmt.Errorf("no answer within %v", limit))
		defer stop()
	}
	b, err := a.plat.Fetch(lctx, api.ModelsPath, nil)
	if err != nil && lctx.Err() != nil && ctx.Err() == nil {
		err = context.Cause(lctx)
	}
	cancel(nil)
	if ctx.Err() != nil {
		return nil, false, ctx.Err()
	}
	if err == nil {
		if list, err = parseModelList(b); err != nil {
			err = fmt.Errorf("bad model list: %v", err)
		}
	}
	if err != nil {
		cb, ok := a.plat.CacheLoad(modelsCacheKey)
		if !ok {
			return nil, false, err
		}
		b, fromCache = cb, true
		if list, err = parseModelList(b); err != nil {
			return nil, false, fmt.Errorf("bad model list (kept copy): %v", err)
		}
	}
	if !fromCache {
		_ = a.plat.CacheStore(modelsCacheKey, b) // offline starts only
	}
	return list, fromCache, nil
}

// DefaultListTimeout bounds the wait for the model list, after which the
// copy kept from before is used (Options.ListTimeout); DefaultDownloadStall
// fails a weights download that has received nothing for that long, so
// that Retry is offered (Options.DownloadStall).
const (
	DefaultListTimeout   = 15 * time.Second
	DefaultDownloadStall = 30 * time.Second
)

// parseModelList reads the server's model list; a list whose entries lack
// a name, a URL or a hash (a proxy's JSON, another server's schema) is no
// model list.
func parseModelList(b []byte) ([]api.Model, error) {
	var list []api.Model
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, err
	}
	for i, m := range list {
		if m.Name == "" || m.URL == "" || m.SHA256 == "" {
			return nil, fmt.Errorf("entry %d has no name, URL or SHA-256", i+1)
		}
	}
	return list, nil
}

// weightsFile returns the weights of m from the cache or, when absent or
// damaged, downloaded, checked against m.SHA256 and cached. A download
// that receives nothing for DownloadStall fails.
func (a *App) weightsFile(ctx context.Context, m api.Model, progress func(done, total int64), verifying func()) (data []byte, cached bool, err error) {
	if b, ok := a.plat.CacheLoad(m.URL); ok {
		if sum, err := a.plat.SHA256(b); err == nil && sum == m.SHA256 {
			return b, true, nil
		}
	}
	progress(0, m.Bytes)
	stall := cmp.Or(a.opts.DownloadStall, DefaultDownloadStall)
	dctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	watchdog := time.AfterFunc(stall, func() { cancel(fmt.Errorf("nothing received for %v", stall)) })
	b, err := a.plat.Fetch(dctx, m.URL, func(done, total int64) {
		watchdog.Reset(stall)
		progress(done, total)
	})
	watchdog.Stop()
	if err != nil && ctx.Err() == nil && dctx.Err() != nil {
		err = context.Cause(dctx)
	}
	if err != nil {
		return nil, false, fmt.Errorf("could not download the weights of %s (%s): %v", m.Name, Bytes(m.Bytes), err)
	}
	verifying()
	sum, err := a.plat.SHA256(b)
	if err != nil {
		return nil, false, err
	}
	if sum != m.SHA256 {
		return nil, false, fmt.Errorf("the downloaded weights of %s are damaged: SHA-256 %s, the server lists %s", m.Name, short(sum), short(m.SHA256))
	}
	if err := a.plat.CacheStore(m.URL, b); err != nil {
		a.update(func() {
			if ctx.Err() == nil { // not a note of an abandoned load
				a.Model.Note = "the browser did not keep the weights (" + err.Error() + "): they will be downloaded again next time"
			}
		})
	}
	return b, false, nil
}

// short abbreviates a hex hash.
func short(h string) string {
	if len(h) > 12 {
		return h[:12] + "…"
	}
	return h
}
