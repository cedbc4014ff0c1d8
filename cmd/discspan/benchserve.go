package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/discspan/discspan/bench"
	"github.com/discspan/discspan/weights"
)

// runBenchServe is discspan bench serve: a load test of the server's
// weight downloads on loopback.
func runBenchServe(args []string, stdout io.Writer) error {
	fs := newFlags("bench serve", "[--clients N] [--duration D] [--max-requests N] [--range-share F] [--weights FILE] [--json]", stdout)
	clients := fs.Int("clients", 200, "concurrent clients")
	duration := fs.Duration("duration", 30*time.Second, "how long the clients send requests")
	maxRequests := fs.Int("max-requests", 1_000_000, "stop after this many requests even before --duration")
	rangeShare := fs.Float64("range-share", 0.5, "share of requests for a random byte range (the others download the whole file)")
	wpath := fs.String("weights", "", "weights file to serve (default "+defaultWeights+", else the embedded default model)")
	seed := fs.Uint64("seed", 1, "seed of the clients' random choices")
	asJSON := fs.Bool("json", false, "print JSON")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, rest, 0, "no positional arguments"); err != nil {
		return err
	}
	if *clients < 1 || *duration <= 0 || *maxRequests < 1 || *rangeShare < 0 || *rangeShare > 1 {
		return fmt.Errorf("%w: want --clients >= 1, --duration > 0, --max-requests >= 1 and 0 <= --range-share <= 1", errUsage)
	}
	path, cleanup, err := benchWeights(*wpath)
	if err != nil {
		return err
	}
	defer cleanup()
	if !*asJSON {
		fmt.Fprintf(stdout, "serving %s on 127.0.0.1; %d clients for %s (GOMAXPROCS %d, %d CPUs)...\n",
			path, *clients, *duration, runtime.GOMAXPROCS(0), runtime.NumCPU())
	}
	res, err := bench.LoadServe(context.Background(), bench.LoadConfig{
		Weights:     path,
		Clients:     *clients,
		Duration:    *duration,
		MaxRequests: *maxRequests,
		RangeShare:  *rangeShare,
		Seed:        *seed,
	})
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(res)
	}
	res.Table(stdout)
	if res.Errors > 0 || res.Corrupted > 0 {
		return fmt.Errorf("%d errors and %d corrupted responses (first: %s)", res.Errors, res.Corrupted, res.FirstProblem)
	}
	return nil
}

// benchWeights returns the weights file to serve: path, else the shipped
// file when the working directory is the repository, else the embedded
// default model written to a temporary file (removed by the cleanup).
func benchWeights(path string) (string, func(), error) {
	if path != "" {
		return path, func() {}, nil
	}
	if _, err := os.Stat(defaultWeights); err == nil {
		return defaultWeights, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "discspan-bench-*")
	if err != nil {
		return "", nil, fmt.Errorf("bench serve: %w", err)
	}
	p := filepath.Join(dir, weights.DefaultName)
	if err := os.WriteFile(p, weights.DefaultBytes(), 0o644); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("bench serve: %w", err)
	}
	return p, func() { os.RemoveAll(dir) }, nil
}
