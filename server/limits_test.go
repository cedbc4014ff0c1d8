package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/discspan/discspan/train"
)

// limitServer starts a handler with the training API and options o (its
// JobsDir, Token, Logf and TrainDefaults set here; gate, when not nil,
// holds the first job running until it is closed).
func limitServer(t *testing.T, o Options, gate chan struct{}) (*Handler, *httptest.Server) {
	t.Helper()
	var once sync.Once
	o.JobsDir, o.Token, o.Logf = t.TempDir(), testToken, t.Logf
	o.TrainDefaults = func(o *train.Options) {
		tinyTrain(o)
		if gate != nil {
			once.Do(func() { <-gate })
		}
	}
	h, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		if gate != nil {
			select {
			case <-gate:
			default:
				close(gate)
			}
		}
		srv.Close()
		h.Close()
	})
	return h, srv
}

// errorOf decodes an error answer.
func errorOf(t *testing.T, b []byte) errorJSON {
	t.Helper()
	var e errorJSON
	if err := json.Unmarshal(b, &e); err != nil || e.Error == "" {
		t.Fatalf("error answer %s: %v", b, err)
	}
	return e
}

// TestUploadMaxWords: a sentence over the word limit is a 400 naming its
// line; no job is made.
func TestUploadMaxWords(t *testing.T) {
	data := string(shortTreebank(t, 12, 8))
	long := "(ROOT (S (N 0=w)"
	for i := 1; i <= 300; i++ {
		long += " (N " + strconv.Itoa(i) + "=w)"
	}
	long += "))\n"
	tests := []struct {
		name     string
		maxWords int
		body     string
		line     int
		want     string
	}{
		{"301 words", 0, data[:strings.Index(data, "\n")+1] + long + data, 2, "line 2: discbracket: sentence 2: sentence of 301 words: longer than the limit of 300 words"},
		{"own limit", 3, data, 1, "line 1: discbracket: sentence 1: sentence of"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, srv := limitServer(t, Options{MaxWords: tc.maxWords}, nil)
			resp, b := do(t, http.MethodPost, srv.URL+TrainPath, testToken, "", []byte(tc.body))
			if e := errorOf(t, b); resp.StatusCode != http.StatusBadRequest || e.Line != tc.line || !strings.HasPrefix(e.Error, tc.want) {
				t.Errorf("%s %s, want 400 at line %d: %q", resp.Status, b, tc.line, tc.want)
			}
			if jobs := h.jobs.list(); len(jobs) != 0 {
				t.Errorf("refused upload made jobs: %+v", jobs)
			}
			if ents, _ := os.ReadDir(h.jobs.dir); len(ents) != 2 { // models/ and the server's lock
				t.Errorf("jobs directory after a refused upload: %v", ents)
			}
		})
	}
}

// TestQueueLimit: with MaxQueue jobs waiting, a new upload gets 503 (and
// Retry-After) before its body is read; once one is cancelled, it goes in.
func TestQueueLimit(t *testing.T) {
	data := shortTreebank(t, 12, 8)
	_, srv := limitServer(t, Options{MaxQueue: 2}, make(chan struct{}))
	id1 := submit(t, srv, "?epochs=50", data)
	waitJob(t, srv, id1, "running", func(j Job) bool { return j.State == JobRunning })
	id2 := submit(t, srv, "?epochs=50", data)
	submit(t, srv, "?epochs=50", data)
	resp, b := do(t, http.MethodPost, srv.URL+TrainPath, testToken, "", data)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !strings.Contains(errorOf(t, b).Error, "queue is full") {
		t.Fatalf("upload to a full queue: %s %v %s", resp.Status, resp.Header, b)
	}
	do(t, http.MethodDelete, srv.URL+JobsPath+"/"+id2, testToken, "", nil)
	submit(t, srv, "?epochs=50", data)
}

// stalledBody sends data, then nothing until release is closed.
type stalledBody struct {
	data    []byte
	release chan struct{}
}

func (s *stalledBody) Read(p []byte) (int, error) {
	if len(s.data) > 0 {
		n := copy(p, s.data)
		s.data = s.data[n:]
		return n, nil
	}
	<-s.release
	return 0, io.EOF
}

// TestSlowUploads: a body that stalls gets 408 after the idle timeout, and
// while MaxUploads bodies are being read another upload gets 503. The
// idle timeout, 3 s, is the time the second upload has to be answered in
// (a busy machine must not free the slot first).
func TestSlowUploads(t *testing.T) {
	data := shortTreebank(t, 12, 8)
	h, srv := limitServer(t, Options{MaxUploads: 1, UploadIdleTimeout: 3 * time.Second}, nil)
	release := make(chan struct{})
	defer close(release)
	started := make(chan struct{})
	type answer struct {
		code int
		body []byte
		err  error
	}
	slow := make(chan answer, 1)
	go func() {
		body := &stalledBody{data: data[:len(data)/2], release: release}
		req, _ := http.NewRequest(http.MethodPost, srv.URL+TrainPath, io.MultiReader(body))
		req.Header.Set("Authorization", "Bearer "+testToken)
		close(started)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			slow <- answer{err: err}
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		slow <- answer{code: resp.StatusCode, body: b}
	}()
	<-started
	// The slow upload holds the only slot once the handler has reserved
	// its job directory (1/); another upload is then refused.
	for {
		if _, err := os.Stat(filepath.Join(h.jobs.dir, "1")); err == nil {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	resp, b := do(t, http.MethodPost, srv.URL+TrainPath, testToken, "", data)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(errorOf(t, b).Error, "uploads are being read") {
		t.Errorf("second upload while the first is read: %s %s", resp.Status, b)
	}
	a := <-slow
	if a.err != nil {
		t.Fatal(a.err)
	}
	if a.code != http.StatusRequestTimeout || !bytes.Contains(a.body, []byte("too slow")) {
		t.Errorf("stalled upload: %d %s, want 408", a.code, a.body)
	}
	// The slot is free again.
	submit(t, srv, "?epochs=1", data)
}

// TestUnreadBody: a request whose body the server does not read to its
// end (no handler reads it, or the upload is refused) and whose client
// sends it slowly is answered at once, and its connection closed instead
// of the server waiting to drain the body.
func TestUnreadBody(t *testing.T) {
	_, srv := limitServer(t, Options{MaxQueue: 1}, nil)
	for _, c := range []struct {
		name, request string
		want          string
	}{
		{"PUT, chunked", "PUT / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n", "405"},
		{"PUT, length", "PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nx", "405"},
		{"GET with a body", "GET /api/models HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nx", "200"},
		{"refused upload", "POST /api/train?epochs=0 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + testToken + "\r\nContent-Length: 100000\r\n\r\n(ROOT", "400"},
		{"malformed upload", "POST /api/train HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + testToken + "\r\nContent-Length: 100000\r\n\r\n)\n", "400"},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := io.WriteString(conn, c.request); err != nil {
				t.Fatal(err)
			}
			// The answer, then the end of the connection.
			b, err := io.ReadAll(conn)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(b), "HTTP/1.1 "+c.want) {
				t.Errorf("answer %.60q, want %s", b, c.want)
			}
		})
	}
}

// labelled returns k discbracket sentences of ten two-word constituents,
// each with labels of its own (L<i>_<c>) unless shared, in which case all
// use NP.
func labelled(k int, shared bool) string {
	var b strings.Builder
	for i := range k {
		b.WriteString("(ROOT (S")
		for c := range 10 {
			label := fmt.Sprintf("L%d_%d", i, c)
			if shared {
				label = "NP"
			}
			fmt.Fprintf(&b, " (%s (n %d=a) (v %d=b))", label, 2*c, 2*c+1)
		}
		b.WriteString("))\n")
	}
	return b.String()
}

// TestUploadVocabularyLimits: an upload whose network would be too large
// (too many labels: a 134 KB upload of 4,501 labels took a tiny job to
// 14 GB; or a preset too large for its vocabulary) or that has nothing to
// learn is refused with a 400 before any job is made, naming the line
// where the label limit is passed; an upload with as many sentences and
// one label is accepted.
func TestUploadVocabularyLimits(t *testing.T) {
	tests := []struct {
		name, query, body string
		code, line        int
		want              string
	}{
		{"too many labels", "?epochs=1", labelled(60, false), 400, 55, "one more than the 500 different constituent labels"},
		{"too large a network", "?epochs=1&preset=paper", labelled(54, false), 400, 0, "M parameters, at most 128 M"},
		{"no constituent", "?epochs=1", strings.Repeat("(ROOT (n 0=a) (v 1=b))\n", 12), 400, 0, "nothing to learn"},
		{"one label", "?epochs=1", labelled(60, true), 202, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, srv := limitServer(t, Options{}, nil)
			resp, b := do(t, http.MethodPost, srv.URL+TrainPath+tc.query, testToken, "", []byte(tc.body))
			if resp.StatusCode != tc.code {
				t.Fatalf("%s %s, want %d", resp.Status, b, tc.code)
			}
			if tc.code != 400 {
				return
			}
			if e := errorOf(t, b); e.Line != tc.line || !strings.Contains(e.Error, tc.want) {
				t.Errorf("%s, want line %d and %q", b, tc.line, tc.want)
			}
			if jobs := h.jobs.list(); len(jobs) != 0 {
				t.Errorf("refused upload made jobs: %+v", jobs)
			}
		})
	}
}

// fullDisk fails every write as a full disk does.
type fullDisk struct{}

func (fullDisk) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/srv/jobs/7/train.discbracket", Err: syscall.ENOSPC}
}

// TestUploadDiskFull: a full disk while an upload is stored is the
// server's failure, not the upload's: 507 with a message that blames no
// line of the upload and names no path of the server (it once got a 400
// at "line 22" naming the jobs folder).
func TestUploadDiskFull(t *testing.T) {
	body := strings.NewReader(labelled(200, true))
	_, err := convertUpload(body, "", 300, 0, fullDisk{}, fullDisk{})
	if err == nil {
		t.Fatal("no error")
	}
	code, line := uploadStatus(err)
	msg := uploadMessage(err, 1<<20)
	if code != http.StatusInsufficientStorage || line != 0 || strings.Contains(msg, "/srv") || !strings.Contains(msg, "disk is full") {
		t.Errorf("status %d, line %d, message %q", code, line, msg)
	}
	// Another failure of the server's: 500, no path.
	other := fmt.Errorf("server: %w", &os.PathError{Op: "open", Path: "/srv/jobs/7/.discspan-job", Err: syscall.EACCES})
	if code, _ := uploadStatus(other); code != http.StatusInternalServerError || strings.Contains(uploadMessage(other, 1<<20), "/srv") {
		t.Errorf("permission denied: status %d, message %q", code, uploadMessage(other, 1<<20))
	}
}

// TestUploadDiskNearlyFull: with less free space than the server keeps
// (MinFreeDisk), an upload gets 507 before its body is read, saying how
// to make room; no job is made.
func TestUploadDiskNearlyFull(t *testing.T) {
	if _, ok := freeDisk(t.TempDir()); !ok {
		t.Skip("the system does not tell the free disk space here: no check")
	}
	h, srv := limitServer(t, Options{MinFreeDisk: 1 << 62}, nil)
	resp, b := do(t, http.MethodPost, srv.URL+TrainPath, testToken, "", []byte(labelled(20, true)))
	if resp.StatusCode != http.StatusInsufficientStorage || !strings.Contains(string(b), "?model=1") {
		t.Errorf("%s %s, want 507 saying how to make room", resp.Status, b)
	}
	if jobs := h.jobs.list(); len(jobs) != 0 {
		t.Errorf("jobs: %+v", jobs)
	}
}
