//go:build !js

// Command browsercheck is the browser half of webgpu.TestEquivalenceBrowser
// (see main.go, built with GOOS=js GOARCH=wasm); on other platforms it only
// says so.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "browsercheck runs in a browser: build it with GOOS=js GOARCH=wasm (see webgpu.TestEquivalenceBrowser)")
	os.Exit(2)
}
