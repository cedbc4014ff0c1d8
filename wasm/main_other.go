//go:build !(js && wasm)

// Command wasm is the discspan browser app; it runs only in a browser.
// Build it with GOOS=js GOARCH=wasm (make wasm); on other systems it says
// so.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "discspan wasm: the browser app; build it with GOOS=js GOARCH=wasm (make wasm) and serve it with discspan serve")
	os.Exit(2)
}
