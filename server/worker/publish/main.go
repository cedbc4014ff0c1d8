// Command publish writes the static assets of the discspan worker: a
// published weights directory (server.Publish) holding the given weight
// files (*.safetensors files, or directories of them) under their
// content-addressed names, and the model list server.ManifestName.
//
//	go run ./publish -o build/assets ../../weights/default.safetensors
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/discspan/discspan/server"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "publish:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("publish", flag.ContinueOnError)
	out := fs.String("o", "build/assets", "directory to write the assets to")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("want weight files or directories (usage: publish [-o DIR] WEIGHTS...)")
	}
	var problems []string
	ms, err := server.Publish(*out, fs.Args(), func(f string, a ...any) { problems = append(problems, fmt.Sprintf(f, a...)) })
	if err != nil {
		return err
	}
	for _, p := range problems {
		fmt.Fprintln(stdout, "warning:", p)
	}
	if len(ms) == 0 {
		return fmt.Errorf("no valid weights file in %v", fs.Args())
	}
	for _, m := range ms {
		fmt.Fprintf(stdout, "%s: %s (%d bytes) -> %s/%s.safetensors\n", m.Name, m.SHA256, m.Bytes, *out, m.SHA256)
	}
	return nil
}
