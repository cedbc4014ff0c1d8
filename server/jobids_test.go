package server

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/discspan/discspan/server/api"
)

// jobRoot is a test's folders: root/jobs is the jobs folder and
// root/weights the folder the jobs' models go to.
type jobRoot struct {
	root string
	mu   sync.Mutex
	log  []string
}

func newJobRoot(t *testing.T) *jobRoot {
	t.Helper()
	r := &jobRoot{root: t.TempDir()}
	for _, d := range []string{"jobs", "weights"} {
		if err := os.Mkdir(filepath.Join(r.root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func (r *jobRoot) path(rel string) string { return filepath.Join(r.root, filepath.FromSlash(rel)) }

// start starts a server on the folders (a restart when one ran before);
// hook, when not nil, becomes the jobs' afterRun.
func (r *jobRoot) start(t *testing.T, hook func(*Handler, string)) (*Handler, *httptest.Server) {
	t.Helper()
	h, err := New(Options{JobsDir: r.path("jobs"), Weights: []string{r.path("weights")}, Token: testToken, TrainDefaults: tinyTrain,
		Logf: func(format string, a ...any) {
			line := fmt.Sprintf(format, a...)
			t.Log(line)
			r.mu.Lock()
			r.log = append(r.log, line)
			r.mu.Unlock()
		}})
	if err != nil {
		t.Fatal(err)
	}
	if hook != nil {
		h.jobs.afterRun = func(id string) { hook(h, id) }
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); h.Close() })
	return h, srv
}

// logged reports whether one line of the log holds all of parts.
func (r *jobRoot) logged(parts []string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.ContainsFunc(r.log, func(l string) bool {
		return !slices.ContainsFunc(parts, func(p string) bool { return !strings.Contains(l, p) })
	})
}

// make creates files: a path ending in "/" is an empty folder, content
// "symlink:TARGET" a symbolic link to TARGET (relative to the root).
func (r *jobRoot) make(t *testing.T, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := r.path(rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch target, ok := strings.CutPrefix(content, "symlink:"); {
		case strings.HasSuffix(rel, "/"):
			err = os.MkdirAll(p, 0o755)
		case ok:
			err = os.Symlink(r.path(target), p)
		default:
			err = os.WriteFile(p, []byte(content), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// check reports the files of files that are not as made (gone: those that
// must not exist).
func (r *jobRoot) check(t *testing.T, files map[string]string, gone []string) {
	t.Helper()
	for rel, content := range files {
		p := r.path(rel)
		fi, err := os.Lstat(p)
		if slices.ContainsFunc(gone, func(g string) bool { return rel == g || strings.HasPrefix(rel, g+"/") }) {
			if err == nil {
				t.Errorf("%s: left, want removed", rel)
			}
			continue
		}
		switch {
		case err != nil:
			t.Errorf("%s: %v, want kept", rel, err)
		case strings.HasSuffix(rel, "/") || strings.HasPrefix(content, "symlink:"):
		case !fi.Mode().IsRegular():
			t.Errorf("%s: %v, want the file made", rel, fi.Mode())
		default:
			if b, err := os.ReadFile(p); err != nil || string(b) != content {
				t.Errorf("%s: %q (%v), want %q kept", rel, b, err, content)
			}
		}
	}
}

// record is the JSON record of a finished job id.
func record(t *testing.T, id string) string {
	t.Helper()
	b, err := json.Marshal(Job{ID: id, State: JobDone, Preset: "tiny", Device: "cpu", Epochs: 1, Created: time.Unix(0, 0).UTC()})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// listed reports whether /api/models lists model name.
func listed(t *testing.T, srv *httptest.Server, name string) bool {
	t.Helper()
	_, b := get(t, srv.URL+api.ModelsPath)
	var ms []api.Model
	if err := json.Unmarshal(b, &ms); err != nil {
		t.Fatal(err)
	}
	return slices.ContainsFunc(ms, func(m api.Model) bool { return m.Name == name })
}

// TestJobStart: a server starting on existing folders removes only the
// half-received uploads it made itself (numbered folders with its marker
// and nothing else than an upload's files); everything else (an
// operator's numbered folders, files and links, folders with a bad job
// record, other programs' temporaries, the models) stays as it is, the
// foreign names logged on one line. A new job's id is above every
// numbered name, every installed job model and the last id handed out,
// and it never starts in a folder that exists, even one made after the
// start; it trains (no stale checkpoint) and installs its model beside
// the kept ones.
func TestJobStart(t *testing.T) {
	data := shortTreebank(t, 12, 8)
	upload := map[string]string{"jobs/8/" + jobMarker: "", "jobs/8/" + jobUploadTemp: "(ROOT", "jobs/8/" + jobTrain: "x",
		"jobs/8/" + jobDev: "y", "jobs/8/.job.json.tmp-1": "{"}
	tests := []struct {
		name   string
		files  map[string]string // before the start
		after  map[string]string // made after the start
		gone   []string          // of files, removed at start
		want   string            // the new job's id
		logged []string          // all on one line of the log
	}{
		{name: "empty", want: "1"},
		{name: "jobs folder wiped and models kept",
			files: map[string]string{"weights/job-1.safetensors": "model 1", "weights/job-2.safetensors": "model 2"}, want: "3"},
		{name: "deleted job's model kept",
			files: map[string]string{"jobs/1/job.json": record(t, "1"), "weights/job-3.safetensors": "model 3"}, want: "4"},
		{name: "model under another name",
			files: map[string]string{"weights/job-5-2.safetensors": "model 5", "weights/job-x.safetensors": "x", "weights/mine.safetensors": "m"}, want: "6"},
		{name: "last id recorded", files: map[string]string{"jobs/" + lastIDFile: "41\n"}, want: "42"},
		{name: "last id unreadable", files: map[string]string{"jobs/" + lastIDFile: "many"}, want: "1", logged: []string{lastIDFile}},
		{name: "operator's numbered folders",
			files: map[string]string{"jobs/2024/a.txt": "a", "jobs/007/b": "b", "jobs/-3/c": "c", "jobs/+5/d": "d", "jobs/0/": ""},
			want:  "2025", logged: []string{"2024", "007", "-3", "+5", "0", "left alone"}},
		{name: "operator's folder named like a job",
			files: map[string]string{"jobs/4/notes.txt": "mine"}, want: "5", logged: []string{"4", "left alone"}},
		{name: "empty numbered folder", files: map[string]string{"jobs/6/": ""}, want: "7"},
		{name: "numbered file", files: map[string]string{"jobs/12": "a file"}, want: "13"},
		{name: "numbered link", files: map[string]string{"outside/keep.txt": "k", "jobs/9": "symlink:outside"}, want: "10"},
		{name: "marked folder with other files",
			files: map[string]string{"jobs/8/" + jobMarker: "", "jobs/8/" + jobUploadTemp: "(", "jobs/8/notes.txt": "n"}, want: "9",
			logged: []string{"8", "left alone"}},
		{name: "marked folder holding a folder",
			files: map[string]string{"jobs/8/" + jobMarker: "", "jobs/8/" + jobTrain + "/x": "n"}, want: "9"},
		{name: "half-received upload", files: upload, gone: []string{"jobs/8"}, want: "9"},
		{name: "corrupt record",
			files: map[string]string{"jobs/4/job.json": record(t, "4"), "jobs/5/job.json": "{", "jobs/5/" + jobOut + ".ckpt": "stale",
				"jobs/5/" + jobTrain: "old", "jobs/5/.job.json.tmp-2": "t"},
			want: "6", logged: []string{"job 5", "bad record"}},
		{name: "record of another job",
			files: map[string]string{"jobs/5/job.json": record(t, "4"), "jobs/5/" + jobOut + ".ckpt": "stale"}, want: "6"},
		{name: "unreadable record",
			files: map[string]string{"jobs/5/job.json/": "", "jobs/5/" + jobTrain: "old"}, want: "6", logged: []string{"job 5"}},
		{name: "temporaries",
			files: map[string]string{"jobs/.notes.tmp-1": "n", "weights/.other.safetensors.tmp-2": "being written",
				"jobs/." + lastIDFile + ".tmp-3": "", "weights/.job-9.safetensors.tmp-4": "", "weights/..job-7.staged.tmp-5": "",
				"weights/.job-7" + stagedExt: ""},
			gone: []string{"jobs/." + lastIDFile + ".tmp-3", "weights/.job-9.safetensors.tmp-4", "weights/..job-7.staged.tmp-5",
				"weights/.job-7" + stagedExt},
			want: "1"},
		{name: "folder made after the start", after: map[string]string{"jobs/1/notes.txt": "mine"}, want: "2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newJobRoot(t)
			r.make(t, tc.files)
			_, srv := r.start(t, nil)
			r.check(t, tc.files, tc.gone)
			r.make(t, tc.after)
			id := submit(t, srv, "?epochs=1", data)
			j := waitJob(t, srv, id, "finished", isDone)
			if id != tc.want || j.State != JobDone || j.Model != "job-"+tc.want {
				t.Errorf("new job %s %s (%s), model %q; want job %s done, model job-%s", id, j.State, j.Error, j.Model, tc.want, tc.want)
			}
			if !listed(t, srv, "job-"+tc.want) {
				t.Errorf("model job-%s not listed", tc.want)
			}
			r.check(t, tc.files, tc.gone)
			r.check(t, tc.after, nil)
			if tc.logged != nil && !r.logged(tc.logged) {
				t.Errorf("no line of the log holds %q", tc.logged)
			}
		})
	}
}

// TestJobIDsAfterRestart: a job deleted (DELETE /api/jobs/{id}), or the
// whole jobs folder wiped, before a restart: the next server's new job gets
// another id, and a kept model is never replaced.
func TestJobIDsAfterRestart(t *testing.T) {
	data := shortTreebank(t, 12, 8)
	tests := []struct {
		name   string
		cancel bool // the first job, before it ends
		wipe   bool // the jobs folder, after the first job is deleted
		model  bool // the first job's model stays
	}{
		{name: "done job deleted", model: true},
		{name: "done job deleted and jobs folder wiped", wipe: true, model: true},
		{name: "cancelled job deleted", cancel: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newJobRoot(t)
			h, srv := r.start(t, nil)
			first := submit(t, srv, "?epochs=1", data)
			if tc.cancel {
				do(t, http.MethodDelete, srv.URL+JobsPath+"/"+first, testToken, "", nil)
			}
			waitJob(t, srv, first, "finished", isDone)
			if resp, b := do(t, http.MethodDelete, srv.URL+JobsPath+"/"+first, testToken, "", nil); resp.StatusCode != http.StatusOK {
				t.Fatalf("DELETE of a finished job: %s %s", resp.Status, b)
			}
			model := r.path("weights/job-" + first + ".safetensors")
			kept, err := os.ReadFile(model)
			if tc.model != (err == nil) {
				t.Fatalf("first job's model: %v", err)
			}
			srv.Close()
			h.Close()
			if tc.wipe {
				if err := os.RemoveAll(r.path("jobs")); err != nil {
					t.Fatal(err)
				}
			}

			_, srv2 := r.start(t, nil)
			second := submit(t, srv2, "?epochs=1", data)
			j := waitJob(t, srv2, second, "finished", isDone)
			if second == first || j.State != JobDone {
				t.Fatalf("new job %s after deleting job %s: %s (%s)", second, first, j.State, j.Error)
			}
			checkModel(t, srv2, j)
			if b, err := os.ReadFile(model); tc.model && (err != nil || sha256hex(b) != sha256hex(kept)) {
				t.Errorf("job %s's kept model replaced (%v)", first, err)
			}
		})
	}
}

// TestInstallNeverReplaces: when a file takes a finished job's model name
// (job-<id>.safetensors) before the model is installed, the file stays and
// the model gets the first free name job-<id>-<k>.safetensors, which the
// job's record and the log name.
func TestInstallNeverReplaces(t *testing.T) {
	data := shortTreebank(t, 12, 8)
	tests := []struct {
		name  string
		taken []string // model names made before the install
		want  string
	}{
		{name: "name taken", taken: []string{"job-1"}, want: "job-1-2"},
		{name: "two names taken", taken: []string{"job-1", "job-1-2"}, want: "job-1-3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newJobRoot(t)
			files := map[string]string{}
			for _, n := range tc.taken {
				files["weights/"+n+".safetensors"] = "operator's " + n
			}
			hookErr := make(chan error, 1)
			_, srv := r.start(t, func(h *Handler, id string) { // on the jobs goroutine: no t here
				var err error
				for rel, content := range files {
					err = cmp.Or(err, os.WriteFile(r.path(rel), []byte(content), 0o644))
				}
				hookErr <- err
			})
			id := submit(t, srv, "?epochs=1", data)
			j := waitJob(t, srv, id, "finished", isDone)
			if err := <-hookErr; err != nil {
				t.Fatal(err)
			}
			if j.State != JobDone || j.Model != tc.want {
				t.Fatalf("job %s: %s (%s), model %q; want done, model %s", id, j.State, j.Error, j.Model, tc.want)
			}
			r.check(t, files, nil)
			if !listed(t, srv, tc.want) {
				t.Errorf("model %s not listed", tc.want)
			}
			if !r.logged([]string{"job " + id, tc.want + ".safetensors"}) {
				t.Errorf("no line of the log names job %s and %s.safetensors", id, tc.want)
			}
			if ents, _ := os.ReadDir(r.path("weights")); len(ents) != len(tc.taken)+1 {
				t.Errorf("models folder %v, want the taken names and the model", ents)
			}
		})
	}
}
