package server

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"github.com/discspan/discspan/server/api"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// TestTidyRange: the Range headers passed on to http.ServeContent.
func TestTidyRange(t *testing.T) {
	tests := []struct{ in, out string }{
		{"bytes=0-9", "bytes=0-9"},
		{"bytes=0-9, 20-", "bytes=0-9,20-"},
		{"bytes=-100", "bytes=-100"},
		{"bytes=-0", "bytes=9223372036854775806-"}, // unsatisfiable: 416
		{"bytes=-0,5-6", "bytes=5-6"},
		{"bytes=5-1", ""},               // invalid: ignored
		{"bytes=x-y", ""},               // invalid: ignored
		{"bytes=5", ""},                 // invalid: ignored
		{"bytes=--5", ""},               // invalid: ignored
		{"items=0-5", ""},               // another unit: ignored
		{"bytes 0-5", ""},               // no "=": ignored
		{"bytes=0-9,", "bytes=0-9"},     // an empty element is skipped
		{"bytes= , 0-1,,", "bytes=0-1"}, // empty elements are skipped
		{"bytes=,", ""},                 // no range at all: ignored
		{"bytes=" + strings.Repeat("0-0,", maxRanges) + "1-1", ""}, // too many: ignored
		// Several ranges only ascending, without overlaps: each step back
		// would read the file again.
		{"bytes=0-0,2-3,4-", "bytes=0-0,2-3,4-"},
		{"bytes=" + ascendingRanges(maxRanges), "bytes=" + ascendingRanges(maxRanges)},
		{"bytes=10-19,0-9", ""},                                        // descending: ignored
		{"bytes=0-9,5-14", ""},                                         // overlapping: ignored
		{"bytes=0-9,9-14", ""},                                         // one byte twice: ignored
		{"bytes=0-,20-29", ""},                                         // open range not last: ignored
		{"bytes=0-9,-5", ""},                                           // a suffix range beside another: ignored
		{"bytes=-0,-5", "bytes=-5"},                                    // alone once the empty one is dropped
		{"bytes=0-0," + strings.Repeat("6645701-6645701,0-0,", 7), ""}, // the Worker's worst case
	}
	for _, tc := range tests {
		h := http.Header{"Range": {tc.in}}
		tidyRange(h)
		if got := h.Get("Range"); got != tc.out {
			t.Errorf("%q: %q, want %q", tc.in, got, tc.out)
		}
	}
}

// ascendingRanges returns n one-byte ranges, every other byte.
func ascendingRanges(n int) string {
	var specs []string
	for i := range n {
		specs = append(specs, fmt.Sprintf("%d-%d", 2*i, 2*i))
	}
	return strings.Join(specs, ",")
}

// TestStalledDownload: a client that asks for a large file and reads
// nothing has its connection closed by the server once the socket buffers
// are full and a write has waited StallTimeout; a client that reads, with
// pauses shorter than StallTimeout that add up to much more than it, gets
// the whole file (the guard times each write, not the answer). The pauses
// leave most of StallTimeout spare, so that a busy machine (or -race)
// slowing the reading client down does not fail the test.
func TestStalledDownload(t *testing.T) {
	const (
		stall  = 2 * time.Second
		pause  = stall / 8
		pauses = 24 // 3 stalls in all
	)
	big := make([]byte, 48<<20)
	for i := range big {
		big[i] = byte(i * 7)
	}
	h, err := New(Options{App: fstest.MapFS{"index.html": {Data: []byte("x")}, "big.bin": {Data: big}}, Logf: t.Logf, StallTimeout: stall})
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan net.Conn, 4)
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ConnState = func(c net.Conn, s http.ConnState) {
		if s == http.StateClosed {
			closed <- c
		}
	}
	srv.Start()
	defer srv.Close()

	req, err := http.NewRequest(http.MethodGet, srv.URL+"/big.bin", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	for range pauses {
		if _, err := io.CopyN(&got, resp.Body, int64(len(big)/pauses)); err != nil {
			t.Fatalf("a client that reads, after %d bytes of %d: %v", got.Len(), len(big), err)
		}
		time.Sleep(pause)
	}
	_, err = io.Copy(&got, resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || !bytes.Equal(got.Bytes(), big) {
		t.Fatalf("a client that reads: %s, %d bytes of %d, %v", resp.Status, got.Len(), len(big), err)
	}

	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := fmt.Fprintf(conn, "GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	for c := range closed { // closed by the server, the client having read nothing
		if c.RemoteAddr().String() == conn.LocalAddr().String() {
			break
		}
	}
	n, _ := io.Copy(io.Discard, bufio.NewReader(conn))
	if n >= int64(len(big)) {
		t.Errorf("the stalled client still got %d bytes, the whole file", n)
	}
}

// TestStallGuardHTTP2: behind an HTTP/2 server (the exported Handler may
// be), an upload that pauses for longer than StallTimeout while the
// handler is reading it is not cut off: the stall guard arms a write
// deadline only around the answer's writes, since on HTTP/2 a deadline
// resets the stream whether or not a write is pending.
func TestStallGuardHTTP2(t *testing.T) {
	data := shortTreebank(t, 12, 8)
	const stall = 100 * time.Millisecond
	h, err := New(Options{JobsDir: t.TempDir(), Token: testToken, Logf: t.Logf, TrainDefaults: tinyTrain, StallTimeout: stall})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer func() { srv.Close(); h.Close() }()

	pr, pw := io.Pipe()
	go func() {
		half := len(data) / 2
		pw.Write(data[:half])
		time.Sleep(5 * stall) // the client pauses mid-upload
		pw.Write(data[half:])
		pw.Close()
	}()
	req, err := http.NewRequest(http.MethodPost, srv.URL+TrainPath+"?epochs=1", pr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatalf("the paused upload: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.ProtoMajor != 2 || resp.StatusCode != http.StatusAccepted {
		t.Fatalf("HTTP/%d %s %.200s, want HTTP/2 202", resp.ProtoMajor, resp.Status, b)
	}
}

// deadlineRecorder is a ResponseWriter that records, for
// http.ResponseController, the write deadlines set and the flushes.
type deadlineRecorder struct {
	httptest.ResponseRecorder
	events []string
	armed  bool
}

func (d *deadlineRecorder) SetWriteDeadline(t time.Time) error {
	d.armed = !t.IsZero()
	if d.armed {
		d.events = append(d.events, "arm")
	} else {
		d.events = append(d.events, "clear")
	}
	return nil
}

func (d *deadlineRecorder) Write(b []byte) (int, error) {
	d.events = append(d.events, fmt.Sprintf("write(armed=%v)", d.armed))
	return len(b), nil
}

func (d *deadlineRecorder) FlushError() error {
	d.events = append(d.events, fmt.Sprintf("flush(armed=%v)", d.armed))
	return nil
}

// TestStallGuardDeadlines: every write and flush of an answer, and on
// HTTP/2 the final write of what the handler left buffered, happens under
// a write deadline; on HTTP/2 no deadline is left armed between writes
// (it would reset the stream), and on HTTP/1 one is armed from the start.
func TestStallGuardDeadlines(t *testing.T) {
	tests := []struct {
		proto int
		want  string
	}{
		{1, "arm arm write(armed=true) arm flush(armed=true)"},
		{2, "arm write(armed=true) clear arm flush(armed=true) clear arm"},
	}
	for _, tc := range tests {
		rec := &deadlineRecorder{}
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.ProtoMajor = tc.proto
		g := newStallGuard(rec, r, time.Second)
		g.Write([]byte("x"))
		g.Flush()
		g.finish()
		if got := strings.Join(rec.events, " "); got != tc.want {
			t.Errorf("HTTP/%d: %s\nwant %s", tc.proto, got, tc.want)
		}
	}
}

// TestHostileUploads: uploads that cost a reader memory in proportion to
// their size (a line of nothing but '(', a line of a million words, an
// export sentence with no end) are refused with a 400 naming the line,
// spending a bounded amount of memory; blank lines before the treebank,
// however many, are skipped and counted in line numbers; a form upload,
// and a declared length over the limit (refused before a byte of the body
// is read), get clear errors.
func TestHostileUploads(t *testing.T) {
	data := string(shortTreebank(t, 12, 8))
	words := func(n int) string {
		var b strings.Builder
		b.WriteString("(ROOT (S")
		for i := range n {
			fmt.Fprintf(&b, " (n %d=w)", i)
		}
		return b.String() + "))\n"
	}
	noEOS := func(n int) string {
		var b strings.Builder
		b.WriteString("#BOS 1\n")
		for range n {
			b.WriteString("w\t--\tn\t--\t--\t0\n")
		}
		return b.String()
	}
	tests := []struct {
		name, body string
		code, line int
		want       string
	}{
		{"10 MB of '('", strings.Repeat("(", 10<<20), 400, 1, "longer than 1048576 bytes"},
		{"a tree nested 200,000 deep", "(ROOT " + strings.Repeat("(X ", 200000) + "(n 0=w)" + strings.Repeat(")", 200001) + "\n" + data, 400, 1, "more than 1000 brackets nested"},
		{"a million words", words(1000000), 400, 1, "longer than 1048576 bytes"},
		{"60,000 words", words(60000), 400, 1, "more than 10000 words in one tree"},
		{"an export sentence with no #EOS", noEOS(1000000), 400, 10002, "more than 10000 tokens"},
		{"70,000 blank lines, then a treebank", strings.Repeat("\n", 70000) + data, 202, 0, ""},
		{"70,000 blank lines, then an error", strings.Repeat("\n", 70000) + data[:strings.Index(data, "\n")+1] + "(ROOT (n 0=w)))\n" + data, 400, 70002, "text after the end of the tree"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, srv := limitServer(t, Options{}, nil)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			resp, b := do(t, http.MethodPost, srv.URL+TrainPath+"?epochs=1", testToken, "", []byte(tc.body))
			runtime.ReadMemStats(&after)
			if resp.StatusCode != tc.code {
				t.Fatalf("%s %.200s, want %d", resp.Status, b, tc.code)
			}
			if tc.code == 400 {
				if e := errorOf(t, b); e.Line != tc.line || !strings.Contains(e.Error, tc.want) {
					t.Errorf("error %+v, want line %d saying %q", e, tc.line, tc.want)
				}
			}
			// The body (up to 32 MiB) is read once by the client and once
			// by the server, in this process; the parse holds at most a
			// 1 MiB line and a tree of 30,000 brackets.
			if spent := after.TotalAlloc - before.TotalAlloc; spent > uint64(3*len(tc.body))+128<<20 {
				t.Errorf("%d MiB allocated for a body of %d KiB", spent>>20, len(tc.body)>>10)
			}
		})
	}

	_, srv := limitServer(t, Options{MaxUpload: 1 << 20}, nil)
	resp, b := do(t, http.MethodPost, srv.URL+TrainPath, testToken, "multipart/form-data; boundary=x", []byte("--x\r\n\r\n"+data+"\r\n--x--\r\n"))
	if resp.StatusCode != 400 || !strings.Contains(errorOf(t, b).Error, "--data-binary") {
		t.Errorf("a form upload: %s %s", resp.Status, b)
	}
	// A declared 10 GB body, of which nothing is sent: answered at once.
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Length: 10000000000\r\n\r\n", TrainPath, testToken)
	answer, _ := io.ReadAll(conn)
	if !strings.HasPrefix(string(answer), "HTTP/1.1 413") || !strings.Contains(string(answer), "at most 1048576") {
		t.Errorf("a declared 10 GB body: %.300q", answer)
	}
}

// TestTrainingAPIErrors: unknown paths and methods of the training API
// get JSON errors (with Allow for 405), like its other errors.
func TestTrainingAPIErrors(t *testing.T) {
	_, srv := limitServer(t, Options{}, nil)
	tests := []struct {
		method, path string
		code         int
		allow        string
	}{
		{http.MethodGet, TrainPath, 405, "POST"},
		{http.MethodPut, JobsPath, 405, "GET, HEAD"},
		{http.MethodPost, JobsPath + "/1", 405, "GET, HEAD, DELETE"},
		{http.MethodDelete, JobsPath + "/1/events", 405, "GET, HEAD"},
		{http.MethodGet, JobsPath + "/1/other", 404, ""},
		{http.MethodGet, JobsPath + "/1", 404, ""}, // no such job
		{http.MethodPost, TrainPath + "/", 404, ""},
		{http.MethodGet, "/api/other", 404, ""},
		{http.MethodDelete, api.ModelsPath, 405, "GET, HEAD"},
		{http.MethodGet, JobsPath + "//", 404, ""},      // ServeMux redirected, with HTML
		{http.MethodGet, JobsPath + "/./1", 404, ""},    // the same
		{http.MethodGet, JobsPath + "/1/../2", 404, ""}, // the same
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tc := range tests {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
		req.URL.Opaque = tc.path // sent as written, not cleaned
		req.Header.Set("Authorization", "Bearer "+testToken)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.code || resp.Header.Get("Allow") != tc.allow || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s: %s, Allow %q, %s", tc.method, tc.path, resp.Status, resp.Header.Get("Allow"), resp.Header.Get("Content-Type"))
			continue
		}
		errorOf(t, b)
	}
	_, b := do(t, http.MethodPost, srv.URL+TrainPath+"/", testToken, "", nil)
	if msg := errorOf(t, b).Error; !strings.Contains(msg, "did you mean "+TrainPath) {
		t.Errorf("POST %s/: %q; want the endpoint meant", TrainPath, msg)
	}
}

// TestCancelAfterLastBatch: a DELETE that reaches a running job after its
// training has finished, but before the job is recorded done, is honoured
// as it was answered (202, cancelled): the job ends cancelled and its
// model is never installed, not even for a moment.
func TestCancelAfterLastBatch(t *testing.T) {
	data := shortTreebank(t, 12, 8)
	h, srv := limitServer(t, Options{}, nil)
	type result struct {
		code      int
		installed bool
		err       error
	}
	cancelled := make(chan result, 1)
	h.jobs.afterRun = func(id string) { // on the jobs goroutine: no t here
		_, statErr := os.Stat(h.jobs.modelPath(id))
		req, err := http.NewRequest(http.MethodDelete, srv.URL+JobsPath+"/"+id, nil)
		if err != nil {
			cancelled <- result{err: err}
			return
		}
		req.Header.Set("Authorization", "Bearer "+testToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			cancelled <- result{err: err}
			return
		}
		resp.Body.Close()
		cancelled <- result{code: resp.StatusCode, installed: statErr == nil}
	}
	id := submit(t, srv, "?epochs=1", data)
	j := waitJob(t, srv, id, "finished", isDone)
	r := <-cancelled
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.code != http.StatusAccepted || j.State != JobCancelled || j.Model != "" || r.installed {
		t.Fatalf("DELETE answered %d; the job ended %s, model %q; installed before the cancel: %v", r.code, j.State, j.Model, r.installed)
	}
	if _, err := os.Stat(h.jobs.modelPath(id)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the cancelled job's model is there: %v", err)
	}
	if ents, _ := os.ReadDir(h.jobs.modelsDir); len(ents) != 0 {
		t.Errorf("left in the models folder: %v", ents)
	}
}

// TestStagedModelSwept: a model staged by a server that stopped before
// installing it is removed when a server starts on the same folders; the
// models themselves are kept.
func TestStagedModelSwept(t *testing.T) {
	dir := t.TempDir()
	models := filepath.Join(dir, "models")
	if err := os.MkdirAll(models, 0o755); err != nil {
		t.Fatal(err)
	}
	staged, kept := filepath.Join(models, ".job-7"+stagedExt), filepath.Join(models, "job-6.safetensors")
	for _, p := range []string{staged, kept} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h, err := New(Options{JobsDir: dir, Token: testToken, Logf: t.Logf, TrainDefaults: tinyTrain})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if _, err := os.Stat(staged); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the staged model is still there: %v", err)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("a model was removed: %v", err)
	}
}
