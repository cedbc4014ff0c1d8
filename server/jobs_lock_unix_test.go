//go:build unix && !solaris && !aix

package server

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneServerPerJobsFolder: a second server on the jobs folder another
// one uses is refused before it loads anything, so that the first one's
// running job and its files stay as they are (a second server once
// resumed it, failed it on its locked files and removed its data); once
// the first is closed, a new one starts on the folder and finishes it.
func TestOneServerPerJobsFolder(t *testing.T) {
	data := shortTreebank(t, 12, 8)
	dir := t.TempDir()
	h1, srv1, blocked, release := blockingServer(t, dir)
	id := submit(t, srv1, "?epochs=1", data)
	<-blocked
	if _, err := New(Options{JobsDir: dir, Token: testToken, TrainDefaults: tinyTrain, Logf: t.Logf}); err == nil || !strings.Contains(err.Error(), "used by another discspan serve") {
		t.Errorf("a second server on the folder: %v", err)
	}
	if resp, b := do(t, http.MethodGet, srv1.URL+JobsPath+"/"+id, testToken, "", nil); resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"state":"running"`) {
		t.Errorf("the first server's job after the refusal: %s %s", resp.Status, b)
	}
	if _, err := os.Stat(filepath.Join(dir, id, jobTrain)); err != nil {
		t.Errorf("the running job's data: %v", err)
	}
	shutDown(h1, srv1, release)
	_, srv2 := trainServer(t, dir, tinyTrain)
	if j := waitJob(t, srv2, id, "finished", isDone); j.State != JobDone {
		t.Errorf("the job on the next server: %+v", j)
	}
}

// TestCloseTwiceKeepsTheLock: closing a handler a second time (discspan
// serve closes on the signal and again on return) does not release the
// lock of the server that took the jobs folder after it.
func TestCloseTwiceKeepsTheLock(t *testing.T) {
	dir := t.TempDir()
	open := func() (*Handler, error) {
		return New(Options{JobsDir: dir, Token: testToken, TrainDefaults: tinyTrain, Logf: t.Logf})
	}
	h1, err := open()
	if err != nil {
		t.Fatal(err)
	}
	h1.Close()
	h2, err := open()
	if err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	h1.Close()
	if h3, err := open(); err == nil {
		h3.Close()
		t.Error("a third server took the folder the second one uses")
	}
}
