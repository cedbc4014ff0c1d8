package server

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/discspan/discspan/server/api"
	"github.com/discspan/discspan/train"
)

// Options configure the handler. The zero value serves an explanation
// instead of the app and no models.
type Options struct {
	// App holds the app's files: index.html at its root, main.wasm,
	// wasm_exec.js, the service worker and the style sheet. A file X is
	// served from X.br or X.gz instead when that exists and the client
	// accepts the encoding. Nil, or a tree without index.html, makes "/"
	// explain how to build the app.
	App fs.FS
	// Weights lists weight files (*.safetensors) and directories, whose
	// *.safetensors files are offered. The list is read again on every
	// request for the model list, so that a model written later shows up.
	// A file named default.safetensors comes first, the others by name.
	Weights []string
	// Logf reports unreadable weight files; nil means log.Printf.
	Logf func(format string, args ...any)

	// JobsDir, when set, enables the training API (POST /api/train,
	// /api/jobs...; see the package documentation) and holds its jobs:
	// one directory per job with its record job.json, the uploaded
	// treebank, the train/dev split and the training checkpoint.
	// Unfinished jobs found there are resumed. Call Handler.Close to stop
	// them.
	JobsDir string
	// ModelsDir is where finished jobs' weights are written
	// (job-<id>.safetensors); it is offered like Weights. Empty: the
	// first directory of Weights, else JobsDir/models.
	ModelsDir string
	// Hosts, when not empty, are the host names (without port) a request's
	// Host header may name; others get 421. HostsFor gives them for a
	// listening address. Empty: any host.
	Hosts []string
	// Token is the bearer token of the training API. Without one the API
	// is refused unless Loopback is set.
	Token string
	// Loopback says the server listens on the loopback interface only.
	Loopback bool
	// MaxUpload bounds an uploaded treebank in bytes; 0 means
	// DefaultMaxUpload.
	MaxUpload int64
	// MaxUploads bounds the uploads read at once (others get 503); 0 means
	// DefaultMaxUploads.
	MaxUploads int
	// MaxQueue bounds the jobs waiting in the queue (not counting the
	// running one; others get 503); 0 means DefaultMaxQueue.
	MaxQueue int
	// MaxWords is the longest sentence of an upload (tree.CheckLength: 0
	// means tree.DefaultMaxWords, negative no limit).
	MaxWords int
	// MinFreeDisk is the free space the jobs folder's disk keeps: an
	// upload that would leave less (its declared size three times: the
	// upload, its split, the job's files) gets 507 before its body is
	// read; 0 means no check (discspan serve's --min-free-mb gives
	// DefaultMinFreeDisk).
	MinFreeDisk int64
	// UploadIdleTimeout ends an upload whose body sends nothing for that
	// long, UploadTimeout one that takes longer in all (408); 0 means
	// DefaultUploadIdleTimeout and DefaultUploadTimeout.
	UploadIdleTimeout, UploadTimeout time.Duration
	// Device is the device training jobs run on; "" and "cpu" mean the
	// CPU, the only one so far. One job runs at a time per device.
	Device string
	// StallTimeout drops a connection whose client takes no bytes of an
	// answer for that long (a stalled download); 0 means
	// DefaultStallTimeout.
	StallTimeout time.Duration
	// TrainMemory is the memory a training job may take, as the server
	// estimates it from the upload (the lengths of its sentences, its
	// labels and vocabulary, the preset's sizes, train's batch and one
	// worker a core): an upload whose training would take more gets a
	// 400 before a job is made. 0 means DefaultTrainMemory.
	TrainMemory int64
	// TrainDefaults, when set, adjusts the train.Options of each job
	// before it runs (sizes, workers, batch size; tests make them tiny).
	// Preset, Epochs and Progress are the server's.
	TrainDefaults func(*train.Options)
}

// Handler serves the app, the model list and the weight files.
type Handler struct {
	static *static
	models modelSource
	mux    *http.ServeMux
	hosts  map[string]bool             // nil: any
	cross  *http.CrossOriginProtection // checks the training API's requests

	jobs        *jobs // nil: no training API
	tmux        *http.ServeMux
	token       string
	maxUpload   int64
	maxWords    int
	minFree     int64         // see Options.MinFreeDisk; 0: no check
	trainMemory int64         // see Options.TrainMemory
	uploads     chan struct{} // one token per upload being read
	idle, end   time.Duration // upload timeouts
	stall       time.Duration // see Options.StallTimeout
}

// New returns the handler for o. It fails when a path of o.Weights cannot
// be read (a missing file is not an error: the model list says why it is
// empty through Logf).
func New(o Options) (*Handler, error) {
	logf := o.Logf
	if logf == nil {
		logf = log.Printf
	}
	paths := o.Weights
	var modelsDir string
	if o.JobsDir != "" {
		// A token read from a file or a variable often ends with a
		// newline, which no client sends back.
		if t := strings.TrimSpace(o.Token); t == "" && o.Token != "" {
			return nil, fmt.Errorf("server: the token is only white space")
		} else {
			o.Token = t
		}
		if o.Token == "" && !o.Loopback {
			return nil, fmt.Errorf("server: the training API needs a token unless the server listens on loopback only")
		}
		for _, l := range []struct {
			name  string
			value int64
		}{{"MaxUpload", o.MaxUpload}, {"MaxUploads", int64(o.MaxUploads)}, {"MaxQueue", int64(o.MaxQueue)},
			{"UploadIdleTimeout", int64(o.UploadIdleTimeout)}, {"UploadTimeout", int64(o.UploadTimeout)}, {"TrainMemory", o.TrainMemory}} {
			if l.value < 0 {
				return nil, fmt.Errorf("server: Options.%s is negative (%d)", l.name, l.value)
			}
		}
		dev := o.Device
		if dev == "" {
			dev = "cpu"
		}
		if dev != "cpu" && dev != "cuda" && dev != "auto" {
			return nil, fmt.Errorf("server: device %q: want cpu, cuda or auto", dev)
		}
		modelsDir = o.ModelsDir
		for _, p := range o.Weights {
			if fi, err := os.Stat(p); modelsDir == "" && err == nil && fi.IsDir() {
				modelsDir = p
			}
		}
		if modelsDir == "" {
			modelsDir = filepath.Join(o.JobsDir, "models")
		}
		if !slices.Contains(paths, modelsDir) {
			paths = append(slices.Clip(paths), modelsDir)
		}
		o.Device = dev
	}
	if o.StallTimeout < 0 {
		return nil, fmt.Errorf("server: negative stall timeout")
	}
	h := &Handler{static: newStatic(o.App), models: newCatalog(paths, logf), mux: http.NewServeMux(),
		hosts: hostSet(o.Hosts), cross: http.NewCrossOriginProtection(), stall: cmp.Or(o.StallTimeout, DefaultStallTimeout)}
	if o.JobsDir != "" {
		j, err := newJobs(o.JobsDir, modelsDir, o.Device, cmp.Or(o.MaxQueue, DefaultMaxQueue), o.MaxWords, o.TrainDefaults, logf)
		if err != nil {
			return nil, err
		}
		h.jobs, h.tmux, h.token, h.maxUpload, h.maxWords = j, http.NewServeMux(), o.Token, o.MaxUpload, o.MaxWords
		if h.maxUpload <= 0 {
			h.maxUpload = DefaultMaxUpload
		}
		h.minFree = max(o.MinFreeDisk, 0)
		h.trainMemory = cmp.Or(o.TrainMemory, DefaultTrainMemory)
		h.uploads = make(chan struct{}, cmp.Or(o.MaxUploads, DefaultMaxUploads))
		h.idle, h.end = cmp.Or(o.UploadIdleTimeout, DefaultUploadIdleTimeout), cmp.Or(o.UploadTimeout, DefaultUploadTimeout)
		h.routeTraining()
	}
	if _, err := h.models.models(); err != nil {
		h.Close()
		return nil, err
	}
	h.route()
	return h, nil
}

// route registers the read-only endpoints: the model list, the weight
// files and the app.
func (h *Handler) route() {
	h.mux.HandleFunc(api.ModelsPath, h.serveModels)
	h.mux.HandleFunc(api.WeightsPrefix, h.serveWeights)
	h.mux.HandleFunc("/", h.static.serve)
}

// ServeHTTP answers GET and HEAD requests (and the training API's POST
// and DELETE); other methods get 405. Every answer carries the security
// headers (see ContentSecurityPolicy); a request whose Host is not one of
// Options.Hosts gets 421, and a cross-origin POST or DELETE (by its
// Sec-Fetch-Site or Origin header) 403. A client that stops taking an
// answer is dropped after Options.StallTimeout; a Range header is tidied
// first (see tidyRange).
func (h *Handler) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	w := newStallGuard(rw, r, h.stall)
	defer w.finish()
	setSecurityHeaders(w.Header())
	if r.ContentLength != 0 {
		// Only an upload reads its body (under deadlines of its own, see
		// timedBody); any answer closes the connection rather than drain
		// what is left of a body.
		abandonBody(w, r)
	}
	if !hostAllowed(h.hosts, r.Host) {
		refuseHost(w, r)
		return
	}
	if h.jobs != nil && isTraining(r.URL.Path) {
		if p := path.Clean(r.URL.Path); p != r.URL.Path {
			// ServeMux would redirect to the cleaned path with an HTML
			// body; an API answers JSON, and names the path meant.
			writeError(w, http.StatusNotFound, fmt.Sprintf("no such endpoint of the training API: %s (meant %s?)", r.URL.Path, p), 0)
			return
		}
		if err := h.cross.Check(r); err != nil {
			writeError(w, http.StatusForbidden, "cross-origin request refused: "+err.Error(), 0)
			return
		}
		h.tmux.ServeHTTP(w, r)
		return
	}
	if isAPI(r.URL.Path) && r.URL.Path != api.ModelsPath {
		writeError(w, http.StatusNotFound, h.unknownEndpoint(r.URL.Path), 0)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		msg := fmt.Sprintf("method %s not allowed here (allowed: GET, HEAD)", r.Method)
		if isAPI(r.URL.Path) {
			writeError(w, http.StatusMethodNotAllowed, msg, 0)
		} else {
			http.Error(w, msg, http.StatusMethodNotAllowed)
		}
		return
	}
	tidyRange(r.Header)
	h.mux.ServeHTTP(w, r)
}

// isAPI reports whether a request path belongs to the JSON API, whose
// errors are JSON too.
func isAPI(path string) bool { return path == "/api" || strings.HasPrefix(path, "/api/") }

// unknownEndpoint says why an API path the handler does not serve is not
// there: a training path on a server that does not train, or a path
// unknown here (with the endpoint meant, for one written with a final
// slash).
func (h *Handler) unknownEndpoint(path string) string {
	trimmed := strings.TrimRight(path, "/")
	if h.jobs == nil && isTraining(trimmed) {
		return "this server does not run training jobs (discspan serve trains with --train or --jobs DIR; a read-only server never does)"
	}
	known := []string{api.ModelsPath}
	if h.jobs != nil {
		known = append(known, TrainPath, JobsPath)
	}
	if trimmed != path && slices.Contains(known, trimmed) {
		return fmt.Sprintf("no such endpoint %s: did you mean %s, without the final slash?", clipPath(path), trimmed)
	}
	return fmt.Sprintf("no such endpoint %s (the API has %s)", clipPath(path), strings.Join(known, ", "))
}

// clipPath shortens a request path for an error message.
func clipPath(p string) string {
	if len(p) > 80 {
		return strconv.Quote(p[:80]) + "…"
	}
	return strconv.Quote(p)
}

// Close stops the training jobs: a running job is interrupted after its
// current batch, its checkpoint written, and stays "running" in its record,
// so that a handler created later on the same JobsDir resumes it.
func (h *Handler) Close() {
	if h.jobs != nil {
		h.jobs.close()
	}
}

// Models returns the models the handler offers now (see Options.Weights).
func (h *Handler) Models() ([]api.Model, error) { return h.models.models() }

// errNotFound marks a request for something that is not there.
var errNotFound = errors.New("not found")

// errGone marks a weights file that was listed but can no longer be opened.
var errGone = errors.New("weights file went away")

// isHidden reports whether a cleaned request path names a dot file or
// directory, which are never served.
func isHidden(name string) bool {
	for part := range strings.SplitSeq(name, "/") {
		if strings.HasPrefix(part, ".") {
			return true
		}
	}
	return false
}
