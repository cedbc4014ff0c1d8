package bench

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/discspan/discspan/server"
	"github.com/discspan/discspan/server/api"
)

// LoadConfig configures LoadServe.
type LoadConfig struct {
	Weights     string        // the weights file served
	Clients     int           // concurrent clients
	Duration    time.Duration // how long they send requests
	MaxRequests int           // at most this many requests in all
	RangeShare  float64       // share of range requests
	Seed        uint64        // seed of the clients' choices
}

// LoadResult is what LoadServe measured.
type LoadResult struct {
	Clients      int       `json:"clients"`
	Seconds      float64   `json:"seconds"`
	FileBytes    int64     `json:"file_bytes"`
	Full         LoadStats `json:"full"`
	Range        LoadStats `json:"range"`
	Errors       int       `json:"errors"`    // failed requests: transport errors, wrong status
	Corrupted    int       `json:"corrupted"` // answers whose bytes, length, range or SHA-256 were wrong
	FirstProblem string    `json:"first_problem,omitempty"`
	// Memory of the whole process (server and clients): the peak resident
	// set (VmHWM, 0 where /proc is missing), the peak Go heap sampled
	// every 50 ms, and the live heap after a GC before and after the run.
	PeakRSS        int64 `json:"peak_rss_bytes"`
	PeakHeap       int64 `json:"peak_heap_bytes"`
	HeapBefore     int64 `json:"heap_before_bytes"`
	HeapAfter      int64 `json:"heap_after_bytes"`
	HeapGrowth     int64 `json:"heap_growth_bytes"`
	GoroutinesLeft int   `json:"goroutines_after"`
}

// LoadStats summarises one kind of request.
type LoadStats struct {
	Requests    int     `json:"requests"`
	Bytes       int64   `json:"bytes"`
	PerSecond   float64 `json:"requests_per_second"`
	MBPerSecond float64 `json:"mb_per_second"`
	P50ms       float64 `json:"p50_ms"`
	P99ms       float64 `json:"p99_ms"`
}

// LoadServe starts the server's handler (server.New with c.Weights) on a
// loopback port and runs c.Clients clients against it for c.Duration (or
// c.MaxRequests requests): each downloads the weights file whole (checking
// every byte against the file and the SHA-256 against the model list) or a
// random byte range (checking the status, Content-Range and every byte).
func LoadServe(ctx context.Context, c LoadConfig) (*LoadResult, error) {
	data, err := os.ReadFile(c.Weights)
	if err != nil {
		return nil, fmt.Errorf("bench serve: %w", err)
	}
	h, err := server.New(server.Options{Weights: []string{c.Weights}, Logf: func(string, ...any) {}})
	if err != nil {
		return nil, err
	}
	defer h.Close()
	ms, err := h.Models()
	if err != nil {
		return nil, err
	}
	if len(ms) != 1 {
		return nil, fmt.Errorf("bench serve: %s is not a valid weights file", c.Weights)
	}
	model := ms[0]

	heapBefore := liveHeap()
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	ready := make(chan string, 1)
	served := make(chan error, 1)
	go func() { served <- server.Run(sctx, "127.0.0.1:0", h, func(url string) { ready <- url }) }()
	var base string
	select {
	case base = <-ready:
	case err := <-served:
		return nil, err
	}

	sampler := startHeapSampler()
	tr := &http.Transport{
		DisableCompression:  true,
		MaxIdleConns:        c.Clients,
		MaxIdleConnsPerHost: c.Clients,
		IdleConnTimeout:     30 * time.Second,
	}
	client := &http.Client{Transport: tr, Timeout: 2 * time.Minute}
	lctx, cancel := context.WithTimeout(ctx, c.Duration)
	defer cancel()
	var (
		mu     sync.Mutex
		issued int
		wg     sync.WaitGroup
	)
	// take reserves one request under the count bound.
	take := func() bool {
		mu.Lock()
		defer mu.Unlock()
		if issued >= c.MaxRequests {
			return false
		}
		issued++
		return true
	}
	logs := make([]clientLog, c.Clients)
	start := time.Now()
	for i := range logs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			logs[i].run(lctx, client, base, model, data, c, i, take)
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	tr.CloseIdleConnections()
	peakHeap := sampler()
	stop()
	if err := <-served; err != nil {
		return nil, err
	}

	res := &LoadResult{Clients: c.Clients, Seconds: elapsed.Seconds(), FileBytes: int64(len(data)), PeakHeap: peakHeap}
	var full, rng []time.Duration
	for _, l := range logs {
		full = append(full, l.full...)
		rng = append(rng, l.rng...)
		res.Full.Bytes += l.fullBytes
		res.Range.Bytes += l.rangeBytes
		res.Errors += l.errors
		res.Corrupted += l.corrupted
		if res.FirstProblem == "" {
			res.FirstProblem = l.problem
		}
	}
	res.Full.summarise(full, elapsed)
	res.Range.summarise(rng, elapsed)
	res.HeapBefore, res.HeapAfter = heapBefore, liveHeap()
	runtime.KeepAlive(data) // live in both measurements
	res.HeapGrowth = res.HeapAfter - res.HeapBefore
	res.PeakRSS = peakRSS()
	res.GoroutinesLeft = runtime.NumGoroutine()
	return res, nil
}

// clientLog is what one client did.
type clientLog struct {
	full, rng             []time.Duration // latencies, whole body read
	fullBytes, rangeBytes int64
	errors, corrupted     int
	problem               string // the first
}

// fail records a failed request (corrupt: a wrong answer).
func (l *clientLog) fail(corrupt bool, format string, args ...any) {
	if corrupt {
		l.corrupted++
	} else {
		l.errors++
	}
	if l.problem == "" {
		l.problem = fmt.Sprintf(format, args...)
	}
}

// run sends requests until ctx is done or take refuses.
func (l *clientLog) run(ctx context.Context, client *http.Client, base string, m api.Model, data []byte, c LoadConfig, id int, take func() bool) {
	rng := rand.New(rand.NewPCG(c.Seed, uint64(id)))
	buf := make([]byte, 64<<10)
	size := int64(len(data))
	for ctx.Err() == nil && take() {
		ranged := rng.Float64() < c.RangeShare
		var a, b int64
		if ranged {
			a = rng.Int64N(size)
			b = a + rng.Int64N(min(size-a, 1<<20))
		}
		t0 := time.Now()
		n, err := l.fetch(ctx, client, base+m.URL, m, data, ranged, a, b, buf)
		d := time.Since(t0)
		if ctx.Err() != nil && err != nil {
			return // cut off by the end of the run: not an error
		}
		if err != nil {
			var ce corruptError
			l.fail(errors.As(err, &ce), "%v", err)
			continue
		}
		if ranged {
			l.rng, l.rangeBytes = append(l.rng, d), l.rangeBytes+n
		} else {
			l.full, l.fullBytes = append(l.full, d), l.fullBytes+n
		}
	}
}

// corruptError marks a wrong answer (as opposed to a failed request).
type corruptError struct{ msg string }

func (e corruptError) Error() string { return e.msg }

func corrupt(format string, args ...any) error { return corruptError{fmt.Sprintf(format, args...)} }

// fetch downloads the whole file (ranged false) or bytes a..b, checks the
// answer and returns the number of body bytes.
func (l *clientLog) fetch(ctx context.Context, client *http.Client, url string, m api.Model, data []byte, ranged bool, a, b int64, buf []byte) (int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	want, status := data, http.StatusOK
	if ranged {
		req.Header.Set("Range", "bytes="+strconv.FormatInt(a, 10)+"-"+strconv.FormatInt(b, 10))
		want, status = data[a:b+1], http.StatusPartialContent
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != status {
		io.Copy(io.Discard, resp.Body)
		return 0, fmt.Errorf("%s: status %d, want %d", req.Header.Get("Range"), resp.StatusCode, status)
	}
	if ranged {
		if cr, wantCR := resp.Header.Get("Content-Range"), fmt.Sprintf("bytes %d-%d/%d", a, b, len(data)); cr != wantCR {
			io.Copy(io.Discard, resp.Body)
			return 0, corrupt("Content-Range %q, want %q", cr, wantCR)
		}
	}
	h := sha256.New()
	var n int64
	for {
		k, err := resp.Body.Read(buf)
		if k > 0 {
			if n+int64(k) > int64(len(want)) || !bytes.Equal(buf[:k], want[n:n+int64(k)]) {
				io.Copy(io.Discard, resp.Body)
				return n, corrupt("bytes at offset %d differ from the file", a+n)
			}
			if !ranged {
				h.Write(buf[:k])
			}
			n += int64(k)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return n, err
		}
	}
	if n != int64(len(want)) {
		return n, corrupt("got %d bytes, want %d", n, len(want))
	}
	if !ranged {
		if sum := hex.EncodeToString(h.Sum(nil)); sum != m.SHA256 {
			return n, corrupt("SHA-256 %s, the model list says %s", sum, m.SHA256)
		}
	}
	return n, nil
}

// summarise fills s from the latencies of its requests over elapsed.
func (s *LoadStats) summarise(ds []time.Duration, elapsed time.Duration) {
	s.Requests = len(ds)
	if len(ds) == 0 {
		return
	}
	slices.Sort(ds)
	s.PerSecond = float64(len(ds)) / elapsed.Seconds()
	s.MBPerSecond = float64(s.Bytes) / 1e6 / elapsed.Seconds()
	s.P50ms = ms(percentile(ds, 50))
	s.P99ms = ms(percentile(ds, 99))
}

// Table prints the result as a Markdown table and the memory figures.
func (r *LoadResult) Table(w io.Writer) {
	fmt.Fprintf(w, "| requests | count | requests/s | MB/s | p50 ms | p99 ms |\n|---|---|---|---|---|---|\n")
	row := func(name string, s LoadStats) {
		fmt.Fprintf(w, "| %s | %d | %.1f | %.1f | %.1f | %.1f |\n", name, s.Requests, s.PerSecond, s.MBPerSecond, s.P50ms, s.P99ms)
	}
	row(fmt.Sprintf("full (%.2f MB)", float64(r.FileBytes)/1e6), r.Full)
	row("range (random, <= 1 MiB)", r.Range)
	all := LoadStats{Requests: r.Full.Requests + r.Range.Requests, Bytes: r.Full.Bytes + r.Range.Bytes}
	if r.Seconds > 0 {
		all.PerSecond = float64(all.Requests) / r.Seconds
		all.MBPerSecond = float64(all.Bytes) / 1e6 / r.Seconds
	}
	fmt.Fprintf(w, "| all | %d | %.1f | %.1f | - | - |\n", all.Requests, all.PerSecond, all.MBPerSecond)
	fmt.Fprintf(w, "\n%d clients, %.1f s; errors %d, corrupted responses %d\n", r.Clients, r.Seconds, r.Errors, r.Corrupted)
	rss := "unknown"
	if r.PeakRSS > 0 {
		rss = fmt.Sprintf("%.1f MB", float64(r.PeakRSS)/1e6)
	}
	fmt.Fprintf(w, "peak RSS %s (server and clients in one process); Go heap: peak %.1f MB, live %.1f MB before, %.1f MB after\n",
		rss, float64(r.PeakHeap)/1e6, float64(r.HeapBefore)/1e6, float64(r.HeapAfter)/1e6)
}
