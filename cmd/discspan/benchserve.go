package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/discspan/discspan/bench"
)

// runBenchServe is discspan bench serve: a load test of the server's
// weight downloads on loopback.
func runBenchServe(args []string, stdout, stderr io.Writer) error {
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
	paths, _, cleanup, err := serveWeights(*wpath)
	if err != nil {
		return fmt.Errorf("bench serve: %w", err)
	}
	defer cleanup()
	path := paths[0]
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
