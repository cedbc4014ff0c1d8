package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/discspan/discspan/server"
	"github.com/discspan/discspan/weights"
)

// runMainEnv, set in the environment, makes the test binary run the
// command line instead of the tests: the tests start it as a real
// `discspan serve` process.
const runMainEnv = "DISCSPAN_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// mainCommand is `discspan args...` as a process of its own: the test
// binary, made to run the command line by runMainEnv.
func mainCommand(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	return cmd
}

// serveProc is a `discspan serve` process on 127.0.0.1.
type serveProc struct {
	cmd    *exec.Cmd
	url    string
	output *bytes.Buffer // what it printed after its URL
	done   chan error
}

// startServe starts `discspan serve --addr 127.0.0.1:0 args...` and waits
// until it listens.
func startServe(t *testing.T, args ...string) *serveProc {
	t.Helper()
	cmd := mainCommand(append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(cmd.Env, "DISCSPAN_TOKEN=")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &serveProc{cmd: cmd, output: new(bytes.Buffer), done: make(chan error, 1)}
	sc := bufio.NewScanner(out)
	var head []string
	for sc.Scan() {
		head = append(head, sc.Text())
		if _, u, ok := strings.Cut(sc.Text(), "serving the discspan app at "); ok {
			p.url = strings.Fields(u)[0]
			break
		}
	}
	if p.url == "" {
		cmd.Wait()
		t.Fatalf("discspan serve did not start: %s", strings.Join(head, "\n"))
	}
	go func() {
		io.Copy(p.output, out)
		p.done <- cmd.Wait()
	}()
	t.Cleanup(func() { p.stop(t) })
	return p
}

// stop interrupts the server (as Ctrl-C does) and waits for it to exit;
// it fails the test when the process did not exit cleanly.
func (p *serveProc) stop(t *testing.T) {
	t.Helper()
	if p.cmd.ProcessState != nil {
		return
	}
	p.cmd.Process.Signal(os.Interrupt)
	if err := <-p.done; err != nil {
		t.Errorf("discspan serve: %v\n%s", err, p.output)
	}
}

// exited reports whether the server process has ended (it must not).
func (p *serveProc) exited() error {
	select {
	case err := <-p.done:
		return fmt.Errorf("discspan serve exited: %v\n%s", err, p.output)
	default:
		return nil
	}
}

// request sends a request to the server and returns the status and body.
func (p *serveProc) request(t *testing.T, method, path string, body []byte, headers ...string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, p.url+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" {
			req.Host = headers[i+1]
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if e := p.exited(); e != nil {
			t.Fatal(e)
		}
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

// servedJob is the part of a job's JSON the tests look at.
type servedJob struct {
	ID, State, Error string
}

// waitFinished polls a job until it is done, failed or cancelled.
func (p *serveProc) waitFinished(t *testing.T, id string) servedJob {
	t.Helper()
	for {
		code, b := p.request(t, http.MethodGet, "/api/jobs/"+id, nil)
		var j servedJob
		if code != http.StatusOK || json.Unmarshal(b, &j) != nil {
			t.Fatalf("GET job %s: %d %s", id, code, b)
		}
		if j.State == "done" || j.State == "failed" || j.State == "cancelled" {
			return j
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// poisonedLines returns the first k lines of the training data with one
// byte that is not UTF-8 in the first word of line 1 ("0=D\xfft").
func poisonedLines(t *testing.T, k int) []string {
	t.Helper()
	data, err := os.ReadFile(dataPath(t, "train.punctmoved.discbracket"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")[:k]
	if !strings.Contains(lines[0], "0=Dit") {
		t.Fatalf("line 1 has no 0=Dit: %s", lines[0])
	}
	lines[0] = strings.Replace(lines[0], "0=Dit", "0=D\xfft", 1)
	return lines
}

// TestServePoisonedJob: an upload with a byte that is not UTF-8 gets a 400
// naming its line; a job left on disk with such data (as an earlier server
// wrote it, "running") fails on start with an error naming the line, and
// neither that server nor the next one on the same directory dies.
func TestServePoisonedJob(t *testing.T) {
	lines := poisonedLines(t, 20)
	dir := t.TempDir()
	jobs, models, app := filepath.Join(dir, "jobs"), filepath.Join(dir, "models"), filepath.Join(dir, "app")
	for _, d := range []string{filepath.Join(jobs, "1"), models, app} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		"upload.discbracket": strings.Join(lines, ""),
		"train.discbracket":  strings.Join(lines[:18], ""),
		"dev.discbracket":    strings.Join(lines[18:], ""),
		"job.json":           `{"id":"1","state":"running","preset":"tiny","device":"cpu","format":"discbracket","epochs":1,"created":"2026-01-01T00:00:00Z"}`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(jobs, "1", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"--train", "--jobs", jobs, "--weights", models, "--app", app}

	s := startServe(t, args...)
	j := s.waitFinished(t, "1")
	want := fmt.Sprintf("train.discbracket:1:%d: invalid UTF-8 (byte 0xff)", strings.IndexByte(lines[0], 0xff)+1)
	if j.State != "failed" || !strings.Contains(j.Error, ": "+want) || strings.Contains(j.Error, dir) {
		t.Fatalf("poisoned job: %+v", j)
	}
	code, b := s.request(t, http.MethodPost, "/api/train?epochs=1", []byte(strings.Join(lines, "")))
	var e struct {
		Error string
		Line  int
	}
	if err := json.Unmarshal(b, &e); code != http.StatusBadRequest || err != nil || e.Line != 1 || !strings.Contains(e.Error, "invalid UTF-8") {
		t.Errorf("poisoned upload: %d %s, want 400 naming line 1", code, b)
	}
	if code, b := s.request(t, http.MethodGet, "/api/models", nil); code != http.StatusOK {
		t.Errorf("models after the poisoned job: %d %s", code, b)
	}
	s.stop(t)

	s = startServe(t, args...)
	if j := s.waitFinished(t, "1"); j.State != "failed" {
		t.Errorf("poisoned job after a restart: %+v", j)
	}
	if code, b := s.request(t, http.MethodGet, "/api/jobs", nil); code != http.StatusOK || !strings.Contains(string(b), `"failed"`) {
		t.Errorf("jobs after a restart: %d %s", code, b)
	}
	s.stop(t)
}

// TestServeGuard runs discspan serve on 127.0.0.1 without a token: a
// request naming another host (DNS rebinding, as a page of evil.example
// that resolves to 127.0.0.1 sends) gets 421, a cross-origin POST 403;
// every answer carries the security headers; an upload with a sentence
// over --max-words gets 400 naming its line; beyond --max-queue waiting
// jobs an upload gets 503.
func TestServeGuard(t *testing.T) {
	data, err := os.ReadFile(dataPath(t, "dev.punctmoved.discbracket"))
	if err != nil {
		t.Fatal(err)
	}
	upload := []byte(strings.Join(strings.SplitAfter(string(data), "\n")[:20], ""))
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<!doctype html><title>app</title>"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startServe(t, "--train", "--jobs", filepath.Join(dir, "jobs"), "--weights", filepath.Join(dir, "models"), "--app", dir,
		"--max-queue", "1", "--max-words", "40")
	tests := []struct {
		name    string
		method  string
		path    string
		body    []byte
		headers []string
		want    int
	}{
		{"app", "GET", "/", nil, nil, 200},
		{"models on localhost", "GET", "/api/models", nil, []string{"Host", "localhost"}, 200},
		{"rebinding", "POST", "/api/train?preset=paper&epochs=1000", upload, []string{"Origin", "http://evil.example", "Host", "evil.example"}, 421},
		{"rebinding GET", "GET", "/api/jobs", nil, []string{"Host", "evil.example"}, 421},
		{"cross-origin", "POST", "/api/train?epochs=1", upload, []string{"Origin", "http://evil.example"}, 403},
		{"cross-site", "DELETE", "/api/jobs/1", nil, []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"long sentence", "POST", "/api/train?epochs=1", upload, nil, 400},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, b := s.request(t, tc.method, tc.path, tc.body, tc.headers...)
			if code != tc.want {
				t.Fatalf("%d, want %d: %s", code, tc.want, b)
			}
		})
	}
	// The long sentence: its line is named.
	if _, b := s.request(t, "POST", "/api/train?epochs=1", upload); !strings.Contains(string(b), "longer than the limit of 40 words") || !strings.Contains(string(b), `"line":`) {
		t.Errorf("long sentence: %s", b)
	}
	req, _ := http.NewRequest("GET", s.url+"/", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for _, h := range []string{"Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Cross-Origin-Opener-Policy", "Cross-Origin-Embedder-Policy"} {
		if resp.Header.Get(h) == "" {
			t.Errorf("no %s header", h)
		}
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "'wasm-unsafe-eval'") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("Content-Security-Policy %q", csp)
	}

	// The queue: one job runs, one waits, the next is refused.
	short := shortLines(t, data, 20, 40)
	var ids []string
	for k := range 2 {
		code, b := s.request(t, "POST", "/api/train?epochs=1000", short)
		var r struct{ ID string }
		if code != http.StatusAccepted || json.Unmarshal(b, &r) != nil {
			t.Fatalf("upload: %d %s", code, b)
		}
		ids = append(ids, r.ID)
		for k == 0 { // the first leaves the queue: it runs
			_, b := s.request(t, "GET", "/api/jobs/"+r.ID, nil)
			var j servedJob
			if json.Unmarshal(b, &j) == nil && j.State != "queued" {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	if code, b := s.request(t, "POST", "/api/train?epochs=1000", short); code != http.StatusServiceUnavailable || !strings.Contains(string(b), "queue is full") {
		t.Errorf("upload to a full queue: %d %s", code, b)
	}
	for _, id := range ids {
		s.request(t, "DELETE", "/api/jobs/"+id, nil)
		if j := s.waitFinished(t, id); j.State != "cancelled" {
			t.Errorf("job %s after DELETE: %+v", id, j)
		}
	}
}

// shortLines returns the first k lines of a discbracket text with at most
// maxWords words each.
func shortLines(t *testing.T, data []byte, k, maxWords int) []byte {
	t.Helper()
	var out []string
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if strings.Count(l, "=") <= maxWords && strings.TrimSpace(l) != "" {
			out = append(out, l)
			if len(out) == k {
				break
			}
		}
	}
	return []byte(strings.Join(out, ""))
}

// TestServeWeightsEmpty: a --weights value that names nothing is a usage
// error.
func TestServeWeightsEmpty(t *testing.T) {
	if _, _, _, err := serveWeights(" , "); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "names no file") {
		t.Errorf("--weights \" , \": error %v, want a usage error", err)
	}
}

// TestServeWeights checks which models discspan serve offers: the
// --weights values, else weights/default.safetensors in the working
// directory and weights/fast.safetensors after it where it exists, else
// (outside the repository) the model embedded in the binary, which the
// server then lists and serves.
func TestServeWeights(t *testing.T) {
	embedded := sha256.Sum256(weights.DefaultBytes())
	for _, tc := range []struct {
		name      string
		flag      string
		repo      bool // a weights/default.safetensors in the working directory
		fast      bool // and a weights/fast.safetensors
		wantPaths []string
		wantNote  bool
		wantModel bool // the server lists the embedded model
		noCache   bool // no user cache folder: a temporary copy
	}{
		{name: "flag", flag: "models", wantPaths: []string{"models"}},
		{name: "flag with two paths", flag: "a, models", wantPaths: []string{"a", "models"}},
		{name: "in the repository", repo: true, wantPaths: []string{defaultWeights}, wantModel: true},
		{name: "in the repository with the fast pair", repo: true, fast: true, wantPaths: []string{defaultWeights, fastWeights}, wantModel: true},
		{name: "outside the repository", wantNote: true, wantModel: true},
		{name: "outside the repository, no cache folder", noCache: true, wantNote: true, wantModel: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			cache := t.TempDir()
			t.Setenv("XDG_CACHE_HOME", cache)
			if tc.noCache {
				t.Setenv("XDG_CACHE_HOME", "")
				t.Setenv("HOME", "")
			}
			if tc.repo {
				if err := os.Mkdir("weights", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(defaultWeights, weights.DefaultBytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.fast {
				// Another file than the default (its bytes differ).
				f, models := shippedModels(t)
				if err := weights.WriteFile(fastWeights, models[0].Params, f.Meta, weights.Int8); err != nil {
					t.Fatal(err)
				}
			}
			paths, note, cleanup, err := serveWeights(tc.flag)
			if err != nil {
				t.Fatal(err)
			}
			defer cleanup()
			if tc.wantPaths != nil && !slices.Equal(paths, tc.wantPaths) {
				t.Errorf("paths %q, want %q", paths, tc.wantPaths)
			}
			if got := note != ""; got != tc.wantNote || tc.wantNote && !strings.Contains(note, "embedded") {
				t.Errorf("note %q, want one: %v", note, tc.wantNote)
			}
			if !tc.wantModel {
				return
			}
			h, err := server.New(server.Options{Weights: paths, Logf: t.Logf})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			ms, err := h.Models()
			if err != nil {
				t.Fatal(err)
			}
			if len(ms) != len(paths) || ms[0].SHA256 != hex.EncodeToString(embedded[:]) {
				t.Fatalf("models %+v, want the embedded default model (sha256 %x) first, %d in all", ms, embedded, len(paths))
			}
			if tc.fast && ms[1].Name != "fast" {
				t.Errorf("second model %q, want fast", ms[1].Name)
			}
			cleanup()
			_, err = os.Stat(filepath.Dir(paths[0]))
			switch {
			case tc.noCache && !os.IsNotExist(err):
				t.Errorf("the embedded model's temporary directory is left after cleanup: %v", err)
			case tc.wantNote && !tc.noCache:
				// Kept in the user's cache folder, and used again by the
				// next start (a damaged copy is replaced).
				if err != nil || !strings.HasPrefix(paths[0], cache) {
					t.Fatalf("the embedded model at %s (%v); want it kept in the cache folder %s", paths[0], err, cache)
				}
				if err := os.WriteFile(paths[0], []byte("damaged"), 0o644); err != nil {
					t.Fatal(err)
				}
				// Another version's copy, unused for 60 days, and one in use.
				other := filepath.Join(cache, "discspan", "default-0123456789abcdef")
				inUse := filepath.Join(cache, "discspan", "default-fedcba9876543210")
				for _, d := range []string{other, inUse} {
					if err := os.MkdirAll(d, 0o755); err != nil {
						t.Fatal(err)
					}
				}
				long := time.Now().Add(-60 * 24 * time.Hour)
				if err := os.Chtimes(other, long, long); err != nil {
					t.Fatal(err)
				}
				again, _, cleanup, err := serveWeights(tc.flag)
				if err != nil {
					t.Fatal(err)
				}
				cleanup()
				if b, err := os.ReadFile(again[0]); again[0] != paths[0] || err != nil || !bytes.Equal(b, weights.DefaultBytes()) {
					t.Errorf("the next start: %s (%d bytes, %v); want %s whole again", again[0], len(b), err, paths[0])
				}
				if _, err := os.Stat(other); !os.IsNotExist(err) {
					t.Errorf("another version's copy %s, unused for 60 days, is left (%v)", other, err)
				}
				if _, err := os.Stat(inUse); err != nil {
					t.Errorf("another version's copy in use was removed: %v", err)
				}
			}
		})
	}
}

// TestServeLimitFlags: a limit of the training API below 1 is refused as a
// usage error naming the flag, before anything starts (0 once silently
// meant the default).
func TestServeLimitFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--max-upload", "0"}, {"--max-upload", "-5"}, {"--max-uploads", "0"}, {"--max-queue", "-1"}, {"--min-free-mb", "-1"},
	} {
		_, stderr, status := runCmd(append([]string{"serve", "--train", "--addr", "127.0.0.1:0"}, args...)...)
		if status != 2 || !strings.Contains(stderr, args[0]+" "+args[1]+": want ") {
			t.Errorf("%v: status %d, %q", args, status, stderr)
		}
	}
}
