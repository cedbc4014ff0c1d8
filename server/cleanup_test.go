package server

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// jobFiles lists the files of a job's directory.
func jobFiles(t *testing.T, dir, id string) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(dir, id))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}

// TestJobCleanup: a finished or cancelled job keeps only its record,
// training log and the server's marker; DELETE removes a finished job; a
// restart sweeps the temporaries and unfinished uploads a killed server
// left (TestJobStart: and nothing else).
func TestJobCleanup(t *testing.T) {
	data := shortTreebank(t, 12, 8)
	dir := t.TempDir()
	h, srv := trainServer(t, dir, tinyTrain)
	done := submit(t, srv, "?epochs=1", data)
	j := waitJob(t, srv, done, "finished", isDone)
	checkModel(t, srv, j)
	if got := jobFiles(t, dir, done); !slices.Equal(got, []string{jobMarker, jobRecord, jobOut + ".log.jsonl"}) {
		t.Errorf("done job's files %v", got)
	}
	second := submit(t, srv, "?epochs=1", append([]byte("\n"), data...))
	if resp, b := do(t, http.MethodDelete, srv.URL+JobsPath+"/"+done, testToken, "", nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("DELETE of a done job: %s %s", resp.Status, b)
	}
	if resp, _ := do(t, http.MethodGet, srv.URL+JobsPath+"/"+done, testToken, "", nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("deleted job: %s", resp.Status)
	}
	if _, err := os.Stat(filepath.Join(dir, done)); err == nil {
		t.Error("deleted job's directory left")
	}
	checkModel(t, srv, j) // the model stays
	j2 := waitJob(t, srv, second, "finished", isDone)
	// ?model=1 deletes the job's model too; other values and parameters
	// are refused.
	for _, q := range []string{"?model=2", "?modle=1"} {
		if resp, b := do(t, http.MethodDelete, srv.URL+JobsPath+"/"+second+q, testToken, "", nil); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("DELETE %s: %s %s", q, resp.Status, b)
		}
	}
	third := submit(t, srv, "?epochs=1", data)
	j3 := waitJob(t, srv, third, "finished", isDone)
	if resp, b := do(t, http.MethodDelete, srv.URL+JobsPath+"/"+third+"?model=1", testToken, "", nil); resp.StatusCode != http.StatusOK {
		t.Errorf("DELETE ?model=1: %s %s", resp.Status, b)
	}
	if _, err := os.Stat(filepath.Join(h.jobs.modelsDir, j3.Model+".safetensors")); err == nil {
		t.Errorf("DELETE ?model=1 left %s", j3.Model)
	}
	if _, err := os.Stat(filepath.Join(h.jobs.modelsDir, j2.Model+".safetensors")); err != nil {
		t.Errorf("another job's model: %v", err)
	}

	// A killed server's leftovers.
	h.Close()
	srv.Close()
	leftovers := []string{filepath.Join(dir, "."+lastIDFile+".tmp-1"), filepath.Join(dir, "models", ".job-9.safetensors.tmp-2"),
		filepath.Join(dir, second, ".job.json.tmp-3"), filepath.Join(dir, "77", jobMarker), filepath.Join(dir, "77", "upload.part"),
		filepath.Join(dir, second, jobTrain)} // a finished job's data, left by a kill before its removal
	for _, f := range leftovers {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, srv2 := trainServer(t, dir, tinyTrain)
	for _, f := range leftovers {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s left after a restart", f)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "77")); err == nil {
		t.Error("unfinished upload's directory left")
	}
	if id := submit(t, srv2, "?epochs=1", data); id == "77" || id == done {
		t.Errorf("new job reuses id %s", id)
	} else {
		do(t, http.MethodDelete, srv2.URL+JobsPath+"/"+id, testToken, "", nil)
		waitJob(t, srv2, id, "finished", isDone)
		if got := jobFiles(t, dir, id); !slices.Equal(got, []string{jobMarker, jobRecord}) && !slices.Equal(got, []string{jobMarker, jobRecord, jobOut + ".log.jsonl"}) {
			t.Errorf("cancelled job's files %v", got)
		}
	}
}
