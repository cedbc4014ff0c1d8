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
	for ok := true; ok; ok = renderer.EventWait() {
		if err := renderer.Render(build.RunBuild(root)); err != nil {
			panic(err)
		}
	}
}
