package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/discspan/discspan/server"
)

// defaultWeights is the shipped default model.
var defaultWeights = filepath.Join("weights", "default.safetensors")

func runServe(args []string, stdout io.Writer) error {
	fs := newFlags("serve", "[--addr HOST:PORT] [--weights DIR|FILE] [--app DIR]", stdout)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (loopback by default)")
	wdir := fs.String("weights", "", "directory (or file) of *.safetensors weight files to offer (default "+defaultWeights+")")
	app := fs.String("app", filepath.Join("build", "web"), "directory of the built app (make wasm)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, rest, 0, "no arguments"); err != nil {
		return err
	}
	w := *wdir
	if w == "" {
		w = defaultWeights
	}
	if _, err := os.Stat(filepath.Join(*app, "index.html")); err != nil {
		fmt.Fprintf(stdout, "warning: %s has no built app (run make wasm); / explains this to the browser\n", *app)
	}
	h, err := server.New(server.Options{
		App:     os.DirFS(*app),
		Weights: []string{w},
		Logf:    func(f string, a ...any) { fmt.Fprintf(stdout, "warning: "+f+"\n", a...) },
	})
	if err != nil {
		return err
	}
	ms, err := h.Models()
	if err != nil {
		return err
	}
	for _, m := range ms {
		fmt.Fprintf(stdout, "model %s: %d bytes, dev F1 %.2f, sha256 %s\n", m.Name, m.Bytes, m.DevF1, m.SHA256)
	}
	if len(ms) == 0 {
		fmt.Fprintf(stdout, "warning: no model in %s: the app will say so and cannot parse\n", w)
	}
	if !server.Loopback(*addr) {
		fmt.Fprintf(stdout, "warning: %s is not a loopback address: the server is reachable from other machines\n", *addr)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return server.Run(ctx, *addr, h, func(url string) {
		fmt.Fprintf(stdout, "serving the discspan app at %s (Ctrl-C stops)\n", url)
	})
}
