//go:build js && wasm

// Command tab is discspan's side of BenchmarkBrowserORT (package
// onnxexport): built for js/wasm and run in the benchmark's page, it
// scores sentences with the first member of the shipped model, exactly as
// the browser app does (network.Model.Forward on one goroutine, wasm SIMD
// kernels), for the page to time against ONNX Runtime Web. It defines two
// JavaScript functions:
//
//	discspanLoad(json)       the sentences to score, a JSON list of word lists;
//	                         warms the model up; returns "" or an error
//	discspanScore(i, reps)   scores sentence i reps times; returns "" or an error
//
// and sets discspanKernels (which code scores, network.Kernels) and
// discspanReady = true once they are defined.
package main

import (
	"encoding/json"
	"fmt"
	"syscall/js"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/weights"
)

func main() {
	f, err := weights.Default()
	if err != nil {
		js.Global().Get("console").Call("log", "tab: "+err.Error())
		js.Global().Set("discspanReady", js.ValueOf("error: "+err.Error()))
		select {}
	}
	m := &network.Model{Params: f.Members[0], Workers: 1}
	var ins []network.Input
	js.Global().Set("discspanLoad", js.FuncOf(func(_ js.Value, args []js.Value) any {
		var sents [][]string
		if err := json.Unmarshal([]byte(args[0].String()), &sents); err != nil {
			return fmt.Sprintf("discspanLoad: %v", err)
		}
		ins = ins[:0]
		for _, words := range sents {
			ins = append(ins, f.Meta.Vocab.Encode(words))
		}
		m.WarmUp()
		return ""
	}))
	js.Global().Set("discspanScore", js.FuncOf(func(_ js.Value, args []js.Value) any {
		i, reps := args[0].Int(), args[1].Int()
		if i < 0 || i >= len(ins) {
			return fmt.Sprintf("discspanScore: no sentence %d (%d loaded)", i, len(ins))
		}
		for range reps {
			if _, err := m.Forward(ins[i]); err != nil {
				return fmt.Sprintf("discspanScore: %v", err)
			}
		}
		return ""
	}))
	js.Global().Set("discspanKernels", network.Kernels())
	js.Global().Set("discspanReady", true)
	select {}
}
