//go:build js && wasm

// Command wasm is the discspan browser app (GOOS=js GOARCH=wasm): in a
// page it renders the components (ui/components) over the app's state
// (ui/app) in vugu's render loop; started by worker.js in a Web Worker it
// serves parse requests instead (ui/browser). web/ holds the page, its
// style, the worker and the service worker; make wasm puts everything in
// build/web.
package main

import (
	"syscall/js"
	"time"

	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/browser"
	"github.com/discspan/discspan/ui/components"
	"github.com/vugu/vugu"
	"github.com/vugu/vugu/domrender"
)

func main() {
	if browser.InWorker() {
		browser.ServeWorker(&parser.Engine{GPU: browser.GPU, Members: browser.Member})
		return
	}
	page := browser.Page()
	renderer, err := domrender.New("#app")
	if err != nil {
		panic(err)
	}
	defer renderer.Release()
	env := renderer.EventEnv()
	build, err := vugu.NewBuildEnv(env)
	if err != nil {
		panic(err)
	}
	a := app.New(env, &browser.Platform{Worker: page.Worker}, page.App)
	root := &components.Root{App: a}
	env.Lock()
	// A shared tree link (#tree=...) opens the teaching tab with the
	// tree, an exercise link (#exercise=...) with the student's attempt
	// checked; so does changing the fragment of the open page.
	a.OpenFragment(js.Global().Get("location").Get("hash").String())
	a.Start()
	env.UnlockRender()
	onHash := js.FuncOf(func(js.Value, []js.Value) any {
		env.Lock()
		a.OpenFragment(js.Global().Get("location").Get("hash").String())
		env.UnlockRender()
		return nil
	})
	defer onHash.Release()
	js.Global().Call("addEventListener", "hashchange", onHash)
	defer keepAnnotation(env, a)()
	// vugu asks for a render after every event and update; requests that
	// come while a render runs or waits are served by one render (wake
	// holds at most one). A job just started is rendered JobBarDelay
	// after its start, or as soon as it is done if sooner.
	wake := make(chan struct{}, 1)
	go func() {
		for renderer.EventWait() {
			select {
			case wake <- struct{}{}:
			default:
			}
		}
		close(wake)
	}()
	render := func() {
		kept := components.KeepFocus()
		if err := renderer.Render(build.RunBuild(root)); err != nil {
			panic(err)
		}
		kept.Restore() // after the components' Rendered, which may focus a field
	}
	render()
	for range wake {
		env.RLock()
		delay := a.RenderDelay(time.Now())
		env.RUnlock()
		if delay > 0 {
			timer := time.NewTimer(delay)
			select {
			case <-wake: // the job was done (or something else changed)
			case <-timer.C:
			}
			timer.Stop()
		}
		render()
	}
}

// keepAnnotation saves the annotation project at once when the page is
// hidden or closed (an edit made just before is otherwise lost with the
// debounced save), and asks before the page is closed or reloaded with
// work not yet saved; it tells the app whether the page is hidden. It
// returns the function that stops listening.
func keepAnnotation(env vugu.EventEnv, a *app.App) (stop func()) {
	doc := js.Global().Get("document")
	onHide := js.FuncOf(func(_ js.Value, args []js.Value) any {
		hidden := doc.Get("visibilityState").String() == "hidden" || len(args) > 0 && args[0].Get("type").String() == "pagehide"
		a.SetPageHidden(hidden) // long work does not pause in a hidden page
		if !hidden {
			return nil
		}
		env.Lock()
		a.AnnFlush()
		env.UnlockOnly()
		return nil
	})
	onUnload := js.FuncOf(func(_ js.Value, args []js.Value) any {
		// Answer first, without the lock: taking it may block, and the
		// handler then returns to the browser at once.
		if (a.AnnUnsavedNow() || a.BankBatchRunningNow()) && len(args) > 0 {
			args[0].Call("preventDefault")
			args[0].Set("returnValue", "") // older browsers ask only with it set
		}
		env.Lock()
		a.AnnFlush()
		env.UnlockOnly()
		return nil
	})
	a.SetPageHidden(doc.Get("visibilityState").String() == "hidden")
	doc.Call("addEventListener", "visibilitychange", onHide)
	js.Global().Call("addEventListener", "pagehide", onHide)
	js.Global().Call("addEventListener", "pageshow", onHide) // back from the back/forward cache
	js.Global().Call("addEventListener", "beforeunload", onUnload)
	return func() {
		doc.Call("removeEventListener", "visibilitychange", onHide)
		js.Global().Call("removeEventListener", "pagehide", onHide)
		js.Global().Call("removeEventListener", "pageshow", onHide)
		js.Global().Call("removeEventListener", "beforeunload", onUnload)
		onHide.Release()
		onUnload.Release()
	}
}
