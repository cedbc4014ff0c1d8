package server

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/server/api"
	"github.com/discspan/discspan/train"
)

const testToken = "s3cret-token"

// devData is the shared treebank the training tests take sentences from.
const devData = "../../shared/data/alpino-cdb/dev.punctmoved.discbracket"

// shortTreebank returns k sentences of at most maxLen words from devData as
// discbracket, skipping the test when the data is absent.
func shortTreebank(t *testing.T, k, maxLen int) []byte {
	t.Helper()
	if _, err := os.Stat(devData); err != nil {
		t.Skipf("shared data absent (%v): skipping", err)
	}
	trees, err := treebank.ReadFile(devData)
	if err != nil {
		t.Fatal(err)
	}
	var keep []*tree.Tree
	for _, tr := range trees {
		if tr.Len() <= maxLen && tr.Len() >= 2 && len(tr.Nodes) > 0 {
			keep = append(keep, tr)
			if len(keep) == k {
				break
			}
		}
	}
	var b bytes.Buffer
	if err := treebank.WriteDiscbracket(&b, keep); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// tinyTrain makes jobs tiny and fast.
func tinyTrain(o *train.Options) {
	c := network.Tiny().NoDropout()
	c.WordDim, c.CharDim, c.CharHidden = 8, 4, 8
	c.LSTM1Hidden, c.LSTM2Hidden, c.LabelMLP, c.SpanMLP = 8, 8, 8, 8
	o.Config = &c
	o.MaxBatchWords = 12
	o.Workers = 1
}

// trainServer starts a handler with the training API on dir.
func trainServer(t *testing.T, dir string, defaults func(*train.Options)) (*Handler, *httptest.Server) {
	t.Helper()
	h, err := New(Options{JobsDir: dir, Token: testToken, TrainDefaults: defaults, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); h.Close() })
	return h, srv
}

// do sends a request with the test token (unless token is "-").
func do(t *testing.T, method, url, token, contentType string, body []byte) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// submit uploads a treebank and returns the job id.
func submit(t *testing.T, srv *httptest.Server, query string, body []byte) string {
	t.Helper()
	resp, b := do(t, http.MethodPost, srv.URL+TrainPath+query, testToken, "", body)
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("POST: %s: %s", resp.Status, b)
	}
	var r struct{ ID string }
	if err := json.Unmarshal(b, &r); err != nil || r.ID == "" {
		t.Fatalf("POST answer %s: %v", b, err)
	}
	return r.ID
}

func getJob(t *testing.T, srv *httptest.Server, id string) Job {
	t.Helper()
	resp, b := do(t, http.MethodGet, srv.URL+JobsPath+"/"+id, testToken, "", nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET job %s: %s: %s", id, resp.Status, b)
	}
	var j Job
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	return j
}

// waitJob polls a job until ok says so. It sets no time limit of its own
// (a busy machine may take long): shortly before the test binary's
// -timeout it fails the test with the job's state.
func waitJob(t *testing.T, srv *httptest.Server, id string, what string, ok func(Job) bool) Job {
	t.Helper()
	deadline, limited := t.Deadline()
	for {
		j := getJob(t, srv, id)
		if ok(j) {
			return j
		}
		if limited && time.Until(deadline) < 5*time.Second {
			t.Fatalf("job %s: not %s before the test's deadline: %+v", id, what, j)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func isDone(j Job) bool { return j.State.final() }

// checkModel checks that a finished job's model is listed and downloads.
func checkModel(t *testing.T, srv *httptest.Server, j Job) {
	t.Helper()
	if j.State != JobDone || j.Model != "job-"+j.ID {
		t.Fatalf("job %+v: want done with model job-%s", j, j.ID)
	}
	_, b := get(t, srv.URL+api.ModelsPath)
	var ms []api.Model
	if err := json.Unmarshal(b, &ms); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.Name == j.Model {
			resp, w := get(t, srv.URL+m.URL)
			if resp.StatusCode != http.StatusOK || int64(len(w)) != m.Bytes || sha256hex(w) != m.SHA256 {
				t.Fatalf("download %s: %s, %d bytes (want %d)", m.URL, resp.Status, len(w), m.Bytes)
			}
			return
		}
	}
	t.Fatalf("model %s not in %s", j.Model, b)
}

// TestTrainJob uploads a small treebank, follows the job's event stream
// and polls it until done; the model is then offered and downloads.
func TestTrainJob(t *testing.T) {
	data := shortTreebank(t, 12, 8)
	_, srv := trainServer(t, t.TempDir(), tinyTrain)
	id := submit(t, srv, "?preset=tiny&epochs=2", data)

	// Server-Sent Events, read concurrently with the polling below.
	var events []Job
	var epochs []EpochStat
	var ended bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		req, _ := http.NewRequest(http.MethodGet, srv.URL+JobsPath+"/"+id+"/events", nil)
		req.Header.Set("Authorization", "Bearer "+testToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return
		}
		defer resp.Body.Close()
		if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
			t.Errorf("events: Content-Type %q", ct)
		}
		sc := bufio.NewScanner(resp.Body)
		event := ""
		for sc.Scan() {
			line := sc.Text()
			if e, ok := strings.CutPrefix(line, "event: "); ok {
				event = e
			}
			if d, ok := strings.CutPrefix(line, "data: "); ok && event == "epoch" {
				var e EpochStat
				if err := json.Unmarshal([]byte(d), &e); err != nil {
					t.Errorf("event data %q: %v", d, err)
				}
				epochs = append(epochs, e)
			} else if ok {
				var j Job
				if err := json.Unmarshal([]byte(d), &j); err != nil {
					t.Errorf("event data %q: %v", d, err)
				}
				if event == "end" {
					ended = true
				} else {
					events = append(events, j)
				}
			}
		}
	}()

	j := waitJob(t, srv, id, "finished", isDone)
	checkModel(t, srv, j)
	if j.Epoch != 2 || j.Epochs != 2 || j.Started == nil || j.Finished == nil || j.TrainSentences != 11 || j.DevSentences != 1 || j.Loss <= 0 {
		t.Errorf("finished job: %+v", j)
	}
	wg.Wait()
	// Job events coalesce (the job may even be done when the stream
	// starts); epoch events do not.
	if !ended || len(events) < 1 || !events[len(events)-1].State.final() {
		t.Fatalf("events: ended %v, %d events", ended, len(events))
	}
	if len(epochs) != 2 || epochs[0].Epoch != 1 || epochs[1].Epoch != 2 || epochs[1].Loss <= 0 {
		t.Errorf("epoch events: %+v", epochs)
	}
	if last := events[len(events)-1]; last.Epoch != 2 || last.Step == 0 || len(last.History) != 2 {
		t.Errorf("last event: %+v", last)
	}
	// The list holds the job; the files are on disk.
	_, b := do(t, http.MethodGet, srv.URL+JobsPath, testToken, "", nil)
	var list []Job
	if err := json.Unmarshal(b, &list); err != nil || len(list) != 1 || list[0].ID != id {
		t.Fatalf("list %s: %v", b, err)
	}
}

func TestTrainAuth(t *testing.T) {
	if _, err := New(Options{JobsDir: t.TempDir()}); err == nil {
		t.Fatal("training API without a token off loopback: no error")
	}
	h, err := New(Options{JobsDir: t.TempDir(), Loopback: true, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	open := httptest.NewServer(h)
	defer open.Close()
	_, srv := trainServer(t, t.TempDir(), tinyTrain)
	for _, c := range []struct {
		name   string
		srv    *httptest.Server
		method string
		path   string
		token  string
		want   int
	}{
		{"no token", srv, "GET", JobsPath, "", 401},
		{"wrong token", srv, "GET", JobsPath, "wrong", 401},
		{"prefix of token", srv, "GET", JobsPath, testToken[:4], 401},
		{"right token", srv, "GET", JobsPath, testToken, 200},
		{"post without token", srv, "POST", TrainPath, "", 401},
		{"events without token", srv, "GET", JobsPath + "/1/events", "", 401},
		{"delete without token", srv, "DELETE", JobsPath + "/1", "", 401},
		{"unknown job", srv, "GET", JobsPath + "/7", testToken, 404},
		{"cancel unknown job", srv, "DELETE", JobsPath + "/7", testToken, 404},
		{"events of unknown job", srv, "GET", JobsPath + "/7/events", testToken, 404},
		{"wrong method", srv, "PUT", JobsPath + "/7", testToken, 405},
		{"loopback without token", open, "GET", JobsPath, "", 200},
		{"models need no token", srv, "GET", api.ModelsPath, "", 200},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, b := do(t, c.method, c.srv.URL+c.path, c.token, "", nil)
			if resp.StatusCode != c.want {
				t.Fatalf("%s %s: %s (want %d): %s", c.method, c.path, resp.Status, c.want, b)
			}
		})
	}
}

func TestTrainUploadErrors(t *testing.T) {
	dir := t.TempDir()
	h, err := New(Options{JobsDir: dir, Token: testToken, MaxUpload: 4096, TrainDefaults: tinyTrain, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer func() { srv.Close(); h.Close() }()
	good := "(ROOT (S (N 0=a) (V 1=b)))\n"
	for _, c := range []struct {
		name, query, ctype, body string
		want, line               int
	}{
		{"too large", "", "", strings.Repeat(good, 200), 413, 0},
		{"too few sentences", "", "", strings.Repeat(good, 9), 400, 0},
		{"bad discbracket", "", "", good + good + "(ROOT (S (N 0=a) (V 1=b))\n" + good, 400, 3},
		{"bad export", "", "", "#BOS 1\na\tN\t--\t--\t500\n#500\tS\t--\t--\tX\n#EOS 1\n", 400, 3},
		{"export by content type", "", "text/x-export", good, 400, 1},
		{"unknown format", "", "", "\n\nhello\n", 400, 3},
		{"invalid UTF-8 discbracket", "", "", good + "(ROOT (S (N 0=a) (V 1=b\xff)))\n" + strings.Repeat(good, 10), 400, 2},
		{"invalid UTF-8 export", "", "", "#BOS 1\na\tN\t--\t--\t0\n#EOS 1\n#BOS 2\n\xc3\tN\t--\t--\t0\n#EOS 2\n", 400, 5},
		{"empty", "", "", "  \n", 400, 0},
		{"bad preset", "?preset=huge", "", strings.Repeat(good, 10), 400, 0},
		{"bad epochs", "?epochs=0", "", strings.Repeat(good, 10), 400, 0},
		{"misspelt parameter", "?epoch=1", "", strings.Repeat(good, 10), 400, 0},
		{"a parameter twice", "?epochs=1&epochs=2", "", strings.Repeat(good, 10), 400, 0},
		{"parameters separated by ;", "?epochs=1;preset=small", "", strings.Repeat(good, 10), 400, 0},
		{"UTF-16", "", "", "\xff\xfe(\x00R\x00O\x00O\x00T\x00", 400, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, b := do(t, http.MethodPost, srv.URL+TrainPath+c.query, testToken, c.ctype, []byte(c.body))
			if resp.StatusCode != c.want {
				t.Fatalf("%s (want %d): %s", resp.Status, c.want, b)
			}
			var e errorJSON
			if err := json.Unmarshal(b, &e); err != nil || e.Error == "" {
				t.Fatalf("error body %s: %v", b, err)
			}
			if e.Line != c.line {
				t.Fatalf("line %d, want %d: %s", e.Line, c.line, b)
			}
		})
	}
	if jobs := h.jobs.list(); len(jobs) != 0 {
		t.Fatalf("refused uploads made jobs: %+v", jobs)
	}
}

// TestTrainPanic: a job whose training panics ends as failed; the server
// goes on answering and runs the next job.
func TestTrainPanic(t *testing.T) {
	data := shortTreebank(t, 12, 8)
	calls := 0
	_, srv := trainServer(t, t.TempDir(), func(o *train.Options) {
		tinyTrain(o)
		if calls++; calls == 1 {
			panic("network: vocab: poisoned")
		}
	})
	id := submit(t, srv, "?epochs=1", data)
	if j := waitJob(t, srv, id, "finished", isDone); j.State != JobFailed || !strings.Contains(j.Error, "poisoned") {
		t.Fatalf("job after a panic: %+v", j)
	}
	id2 := submit(t, srv, "?epochs=1", data)
	checkModel(t, srv, waitJob(t, srv, id2, "finished", isDone))
}

// TestTrainQueueCancel: a second job waits while the first runs; DELETE
// cancels queued and running jobs.
func TestTrainQueueCancel(t *testing.T) {
	data := shortTreebank(t, 12, 8)
	gate := make(chan struct{})
	var once sync.Once
	_, srv := trainServer(t, t.TempDir(), func(o *train.Options) {
		tinyTrain(o)
		once.Do(func() { <-gate }) // the first job waits here, running
	})
	id1 := submit(t, srv, "?epochs=50", data)
	id2 := submit(t, srv, "?epochs=50", data)
	id3 := submit(t, srv, "?epochs=50", data)
	waitJob(t, srv, id1, "running", func(j Job) bool { return j.State == JobRunning })
	for _, id := range []string{id2, id3} {
		if j := getJob(t, srv, id); j.State != JobQueued {
			t.Fatalf("job %s while %s runs: %s", id, id1, j.State)
		}
	}
	if resp, b := do(t, http.MethodDelete, srv.URL+JobsPath+"/"+id3, testToken, "", nil); resp.StatusCode != http.StatusAccepted {
		t.Fatalf("DELETE: %s %s", resp.Status, b)
	}
	if j := getJob(t, srv, id3); j.State != JobCancelled {
		t.Fatalf("queued job after DELETE: %s", j.State)
	}
	do(t, http.MethodDelete, srv.URL+JobsPath+"/"+id1, testToken, "", nil)
	close(gate)
	if j := waitJob(t, srv, id1, "finished", isDone); j.State != JobCancelled {
		t.Fatalf("running job after DELETE: %+v", j)
	}
	waitJob(t, srv, id2, "running", func(j Job) bool { return j.State == JobRunning && j.Step > 0 })
	do(t, http.MethodDelete, srv.URL+JobsPath+"/"+id2, testToken, "", nil)
	if j := waitJob(t, srv, id2, "finished", isDone); j.State != JobCancelled || j.Finished == nil {
		t.Fatalf("running job after DELETE: %+v", j)
	}
}

// TestTrainRestart closes a server in the middle of a job; a new server on
// the same jobs directory resumes it from its checkpoint and finishes it.
func TestTrainRestart(t *testing.T) {
	data := shortTreebank(t, 12, 8)
	dir := t.TempDir()
	h1, srv1, blocked, release := blockingServer(t, dir)
	id := submit(t, srv1, "?epochs=2", data)
	idQ := submit(t, srv1, "?epochs=1", data) // waits in the queue
	<-blocked
	shutDown(h1, srv1, release)

	b, err := os.ReadFile(filepath.Join(dir, id, jobRecord))
	if err != nil {
		t.Fatal(err)
	}
	var rec Job
	if err := json.Unmarshal(b, &rec); err != nil || rec.State != JobRunning {
		t.Fatalf("record after shutdown: %s (%v)", b, err)
	}
	if j, _ := h1.jobs.get(idQ); j.State != JobQueued {
		t.Fatalf("second job at shutdown: %s", j.State)
	}
	if _, err := os.Stat(filepath.Join(dir, id, jobOut+".ckpt")); err != nil {
		t.Fatalf("no checkpoint after shutdown: %v", err)
	}

	_, srv2 := trainServer(t, dir, tinyTrain)
	j := waitJob(t, srv2, id, "finished", isDone)
	if j.Resumed != 1 || j.Epoch != 2 {
		t.Fatalf("resumed job: %+v", j)
	}
	checkModel(t, srv2, j)
	if j := waitJob(t, srv2, idQ, "finished", isDone); j.Resumed != 0 {
		t.Fatalf("queued job after restart: %+v", j)
	} else {
		checkModel(t, srv2, j)
	}
	// A new job gets a fresh id.
	if id2 := submit(t, srv2, "?epochs=1", data); id2 == id {
		t.Fatalf("new job reuses id %s", id)
	} else {
		do(t, http.MethodDelete, srv2.URL+JobsPath+"/"+id2, testToken, "", nil)
		waitJob(t, srv2, id2, "finished", isDone)
	}
}

func sha256hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func FuzzUpload(f *testing.F) {
	f.Add([]byte(strings.Repeat("(ROOT (S (N 0=a) (V 1=b)))\n", 10)), "")
	f.Add([]byte(strings.Repeat("#BOS 1\na\tN\t--\t--\t500\n#500\tS\t--\t--\t0\n#EOS 1\n", 11)), "")
	f.Add([]byte("%% comment\n#BOS 1\n"), "text/x-export; charset=utf-8")
	f.Fuzz(func(t *testing.T, data []byte, ctype string) {
		var tr, dev bytes.Buffer
		c, err := convertUpload(bytes.NewReader(data), ctype, 0, 0, &tr, &dev)
		if err != nil {
			if _, ok := err.(*uploadError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if c.Format != treebank.Export && c.Format != treebank.Discbracket {
			t.Fatalf("format %v", c.Format)
		}
		// The split: every DevEvery-th sentence to dev, written as discbracket.
		if n := c.Train + c.Dev; n < MinUploadSentences || c.Dev != n/DevEvery {
			t.Fatalf("split %+v", c)
		}
		for _, s := range []struct {
			b *bytes.Buffer
			n int
		}{{&tr, c.Train}, {&dev, c.Dev}} {
			trees, err := treebank.ReadDiscbracket(s.b, "split")
			if err != nil || len(trees) != s.n {
				t.Fatalf("%d trees read back (%v), want %d", len(trees), err, s.n)
			}
		}
	})
}

// TestDetectFormat: the format of an upload comes from its Content-Type or
// its first non-blank line, after a byte order mark.
func TestDetectFormat(t *testing.T) {
	for _, c := range []struct {
		name, ctype, data string
		want              treebank.Format
	}{
		{"discbracket", "", "\n(ROOT (N 0=a))\n", treebank.Discbracket},
		{"export", "", "#BOS 1\n", treebank.Export},
		{"export comment", "", "%% word tag\n", treebank.Export},
		{"BOM discbracket", "", "\xEF\xBB\xBF(ROOT (N 0=a))\n", treebank.Discbracket},
		{"BOM export", "", "\xEF\xBB\xBF#BOS 1\n", treebank.Export},
		{"content type", "application/x-discbracket", "#BOS 1\n", treebank.Discbracket},
		{"unknown", "", "hello\n", treebank.Unknown},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := detectFormat([]byte(c.data), c.ctype)
			if got != c.want || (err != nil) != (c.want == treebank.Unknown) {
				t.Errorf("detectFormat(%q, %q) = %v, %v; want %v", c.data, c.ctype, got, err, c.want)
			}
		})
	}
}

// blockingServer starts a server over dir whose first job blocks in its
// second batch: blocked is closed then, and the job goes on once release
// is closed.
func blockingServer(t *testing.T, dir string) (h *Handler, srv *httptest.Server, blocked, release chan struct{}) {
	t.Helper()
	blocked, release = make(chan struct{}), make(chan struct{})
	calls := 0
	h, err := New(Options{JobsDir: dir, Token: testToken, Logf: t.Logf, TrainDefaults: func(o *train.Options) {
		tinyTrain(o)
		o.Now = func() time.Time {
			// Run's start, then one call per batch: block after the second batch.
			if calls++; calls == 3 {
				close(blocked)
				<-release
			}
			return time.Now()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	return h, httptest.NewServer(h), blocked, release
}

// shutDown stops h as a shutdown does while its job is blocked
// (blockingServer): the job is interrupted (its checkpoint written) and
// stays running on disk.
func shutDown(h *Handler, srv *httptest.Server, release chan struct{}) {
	h.jobs.stop() // the shutdown, as Handler.Close starts it
	close(release)
	h.Close()
	srv.Close()
}

// stoppedJob submits a job of two epochs on a new server over dir, stops
// the server in the job's second batch (a shutdown: the checkpoint is
// written) and returns the job's id.
func stoppedJob(t *testing.T, dir string, data []byte) string {
	t.Helper()
	h, srv, blocked, release := blockingServer(t, dir)
	id := submit(t, srv, "?epochs=2", data)
	<-blocked
	shutDown(h, srv, release)
	return id
}

// TestTrainDamagedCheckpoint: a job whose checkpoint was damaged while
// the server was down trains again from the start instead of failing (a
// failed job's data is removed, and the client cannot delete the file as
// the message advised).
func TestTrainDamagedCheckpoint(t *testing.T) {
	dir := t.TempDir()
	id := stoppedJob(t, dir, shortTreebank(t, 12, 8))
	ck := filepath.Join(dir, id, jobOut+".ckpt")
	if err := os.Truncate(ck, 1000); err != nil {
		t.Fatal(err)
	}
	_, srv := trainServer(t, dir, tinyTrain)
	if j := waitJob(t, srv, id, "finished", isDone); j.State != JobDone || j.Epoch != 2 {
		t.Errorf("job after its checkpoint was damaged: %+v", j)
	} else {
		checkModel(t, srv, j)
	}
}

// TestTrainAbortedJobFails: a job the server did not stop itself (the
// process killed, or out of memory, while it ran) is resumed; when the
// server has ended so MaxAborted times without an epoch finished in
// between, the job fails instead of bringing every later start down, its
// data kept (a reboot looks the same) until the job is deleted.
func TestTrainAbortedJobFails(t *testing.T) {
	data := shortTreebank(t, 12, 8)
	for _, tc := range []struct {
		name    string
		aborted int // before the last, unclean, end
		want    JobState
	}{
		{"killed once", 0, JobDone},
		{"killed MaxAborted times", MaxAborted - 1, JobFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			id := stoppedJob(t, dir, data)
			// The record as a server killed while the job ran leaves it.
			path := filepath.Join(dir, id, jobRecord)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var rec Job
			if err := json.Unmarshal(b, &rec); err != nil || rec.State != JobRunning || !rec.Stopped {
				t.Fatalf("record after a shutdown: %s (%v); want running and stopped", b, err)
			}
			rec.Stopped, rec.Aborted = false, tc.aborted
			if b, err = json.Marshal(rec); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			_, srv2 := trainServer(t, dir, tinyTrain)
			j := waitJob(t, srv2, id, "finished", isDone)
			if j.State != tc.want {
				t.Errorf("state %s (%s), want %s", j.State, j.Error, tc.want)
			}
			if tc.want == JobFailed {
				if !strings.Contains(j.Error, "not resumed again") {
					t.Errorf("error %q", j.Error)
				}
				for _, f := range []string{jobTrain, jobOut + ".ckpt"} {
					if _, err := os.Stat(filepath.Join(dir, id, f)); err != nil {
						t.Errorf("the failed job's %s: %v", f, err)
					}
				}
				if resp, b := do(t, http.MethodDelete, srv2.URL+JobsPath+"/"+id, testToken, "", nil); resp.StatusCode != http.StatusOK {
					t.Errorf("DELETE: %s %s", resp.Status, b)
				}
				if _, err := os.Stat(filepath.Join(dir, id)); err == nil {
					t.Error("the deleted job's folder is left")
				}
			}
			if tc.want == JobDone && j.Aborted != 0 {
				t.Errorf("aborted %d after an epoch finished, want 0", j.Aborted)
			}
		})
	}
}

// TestTrainKilledWhileInstalling: a server killed after a job's model took
// its name but before the job's record said done finds the model at
// restart and ends the job done with it, instead of training it again and
// installing a second copy (job-1-2.safetensors).
func TestTrainKilledWhileInstalling(t *testing.T) {
	dir := t.TempDir()
	h, srv := trainServer(t, dir, tinyTrain)
	id := submit(t, srv, "?epochs=1", shortTreebank(t, 12, 8))
	done := waitJob(t, srv, id, "finished", isDone)
	if done.State != JobDone || done.Model != "job-"+id {
		t.Fatalf("job: %+v", done)
	}
	srv.Close()
	h.Close()
	// The record as the kill leaves it: running, the model's name saved.
	path := filepath.Join(dir, id, jobRecord)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rec Job
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	rec.State, rec.Finished = JobRunning, nil
	if b, err = json.Marshal(rec); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	h2, srv2 := trainServer(t, dir, tinyTrain)
	if j := waitJob(t, srv2, id, "finished", isDone); j.State != JobDone || j.Model != done.Model {
		t.Errorf("job after the restart: %+v", j)
	}
	models, _ := filepath.Glob(filepath.Join(h2.jobs.modelsDir, "job-*"))
	if len(models) != 1 {
		t.Errorf("models: %v, want one", models)
	}
}

// TestEventsShutdown: an event stream open when the server stops ends with
// a "shutdown" event (and a retry delay), not a bare close that a client
// cannot tell from a network failure.
func TestEventsShutdown(t *testing.T) {
	h, srv, blocked, release := blockingServer(t, t.TempDir())
	defer srv.Close()
	id := submit(t, srv, "?epochs=1", shortTreebank(t, 12, 8))
	<-blocked
	req, _ := http.NewRequest(http.MethodGet, srv.URL+JobsPath+"/"+id+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+testToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	first := make([]byte, 12)
	if _, err := io.ReadFull(resp.Body, first); err != nil || string(first) != "event: job\nd" {
		t.Fatalf("stream starts %q (%v)", first, err)
	}
	shutDown(h, srv, release)
	rest, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(rest), "retry: 10000\nevent: shutdown\n") {
		t.Errorf("stream after the shutdown: %q", rest)
	}
}
