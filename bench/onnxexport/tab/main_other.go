//go:build !(js && wasm)

// Command tab is discspan's side of BenchmarkBrowserORT (package
// onnxexport); it runs only in a browser (GOOS=js GOARCH=wasm).
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "tab runs only in a browser: build it with GOOS=js GOARCH=wasm (BenchmarkBrowserORT does)")
	os.Exit(2)
}
