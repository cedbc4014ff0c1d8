package server

import (
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/discspan/discspan/network"
)

// Training endpoints (enabled by Options.JobsDir).
const (
	TrainPath = "/api/train"
	JobsPath  = "/api/jobs"
)

// DefaultMaxUpload is the default upload size limit of POST /api/train.
const DefaultMaxUpload = 32 << 20

// DefaultMinFreeDisk is the free space discspan serve keeps on the jobs
// folder's disk by default (see Options.MinFreeDisk): finished jobs'
// models (10 MB for tiny, 155 MB for paper) and checkpoints (up to 620 MB)
// add up.
const DefaultMinFreeDisk = 1 << 30

// Defaults of the upload and queue limits (see Options).
const (
	DefaultMaxUploads        = 2
	DefaultMaxQueue          = 8
	DefaultUploadIdleTimeout = 20 * time.Second
	DefaultUploadTimeout     = 5 * time.Minute
)

// DefaultEpochs is the number of epochs of a job without ?epochs=.
const DefaultEpochs = 10

// MaxEpochs bounds ?epochs=.
const MaxEpochs = 1000

// errorJSON is the body of an error answer of the training endpoints.
type errorJSON struct {
	Error string `json:"error"`
	Line  int    `json:"line,omitempty"` // line of a malformed upload
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	b, _ := json.Marshal(v)
	w.Write(append(b, '\n'))
}

func writeError(w http.ResponseWriter, code int, msg string, line int) {
	writeJSON(w, code, errorJSON{Error: msg, Line: line})
}

// authorized checks the bearer token (constant time); with no token
// configured (loopback only) every request is.
func (h *Handler) authorized(r *http.Request) bool {
	if h.token == "" {
		return true
	}
	// The scheme is case-insensitive (RFC 9110, section 11.1).
	scheme, got, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(h.token)) == 1
}

func (h *Handler) auth(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !h.authorized(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="discspan"`)
			writeError(w, http.StatusUnauthorized, "missing or wrong bearer token", 0)
			return
		}
		next(w, r)
	}
}

func (h *Handler) routeTraining() {
	h.tmux.HandleFunc("POST "+TrainPath, h.auth(h.serveTrain))
	h.tmux.HandleFunc("GET "+JobsPath, h.auth(h.serveJobs))
	h.tmux.HandleFunc("GET "+JobsPath+"/{id}", h.auth(h.serveJob))
	h.tmux.HandleFunc("DELETE "+JobsPath+"/{id}", h.auth(h.serveCancel))
	h.tmux.HandleFunc("GET "+JobsPath+"/{id}/events", h.auth(h.serveEvents))
	// The same paths with other methods, and other paths: JSON errors
	// like the API's others, not net/http's plain text.
	for path, allow := range map[string]string{
		TrainPath:                 "POST",
		JobsPath:                  "GET, HEAD",
		JobsPath + "/{id}":        "GET, HEAD, DELETE",
		JobsPath + "/{id}/events": "GET, HEAD",
	} {
		h.tmux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", allow)
			writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed here (allowed: %s)", r.Method, allow), 0)
		})
	}
	h.tmux.HandleFunc(JobsPath+"/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such endpoint of the training API", 0)
	})
}

// isTraining reports whether a request path belongs to the training API.
func isTraining(path string) bool {
	return path == TrainPath || path == JobsPath || strings.HasPrefix(path, JobsPath+"/")
}

func (h *Handler) serveTrain(w http.ResponseWriter, r *http.Request) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		// ParseQuery drops what it cannot read (a ";" separator).
		writeError(w, http.StatusBadRequest, fmt.Sprintf("query %q: %v (separate parameters with &)", r.URL.RawQuery, err), 0)
		return
	}
	for name, values := range q {
		if name != "preset" && name != "epochs" {
			// A misspelt parameter (?epoch=1) would otherwise be ignored.
			writeError(w, http.StatusBadRequest, fmt.Sprintf("unknown parameter %q: want preset and epochs", name), 0)
			return
		}
		if len(values) > 1 {
			// Only the first would count, whichever the client meant.
			writeError(w, http.StatusBadRequest, fmt.Sprintf("parameter %q given %d times: give it once", name, len(values)), 0)
			return
		}
	}
	preset := q.Get("preset")
	if preset == "" {
		preset = "tiny"
	}
	if _, err := network.Preset(preset); err != nil {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("unknown preset %q (want %s)", preset, strings.Join(network.PresetNames(), ", ")), 0)
		return
	}
	epochs := DefaultEpochs
	if s := q.Get("epochs"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > MaxEpochs {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("epochs %q: want 1 to %d", s, MaxEpochs), 0)
			return
		}
		epochs = n
	}
	if r.ContentLength > h.maxUpload {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("treebank of %d bytes: at most %d (the server's --max-upload)", r.ContentLength, h.maxUpload), 0)
		return
	}
	if need := h.minFree + 3*max(r.ContentLength, 0); h.minFree > 0 {
		// The upload, its split and the job's files count against the
		// floor; a body of unknown length counts as empty here and is
		// limited by --max-upload.
		if free, ok := freeDisk(h.jobs.dir); ok && free < need {
			h.jobs.logf("server: upload refused: %d MiB free on the jobs folder's disk, %d MiB needed", free>>20, need>>20)
			writeError(w, http.StatusInsufficientStorage, fmt.Sprintf("the server's disk is nearly full (%d MiB free, it keeps %d MiB): try again later, or delete finished jobs' models (DELETE /api/jobs/{id}?model=1)", free>>20, h.minFree>>20), 0)
			return
		}
	}
	if h.jobs.queueFull() {
		w.Header().Set("Retry-After", "60")
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("%v (%d jobs wait): try again later", errQueueFull, h.jobs.maxQueue), 0)
		return
	}
	select {
	case h.uploads <- struct{}{}:
		defer func() { <-h.uploads }()
	default:
		w.Header().Set("Retry-After", "10")
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("%d uploads are being read: try again later", cap(h.uploads)), 0)
		return
	}
	id, err := h.jobs.reserve()
	if err != nil {
		h.jobs.logf("server: upload: %v", err)
		code, _ := uploadStatus(err)
		writeError(w, code, uploadMessage(err, h.maxUpload), 0)
		return
	}
	body := newTimedBody(w, http.MaxBytesReader(w, r.Body, h.maxUpload), h.idle, h.end)
	c, err := h.jobs.receive(id, body, r.Header.Get("Content-Type"), h.maxWords, vocabLimit(preset))
	if err == nil {
		err = c.checkModel(preset, defaultShape(), h.trainMemory)
	}
	var j Job
	if err == nil {
		j, err = h.jobs.add(id, c, preset, epochs)
	}
	if err != nil {
		h.jobs.discard(id)
		abandonBody(w, r) // again: the body's reads set later deadlines
		code, line := uploadStatus(err)
		if code >= 500 {
			h.jobs.logf("server: upload: %v", err)
		}
		if code == http.StatusServiceUnavailable {
			w.Header().Set("Retry-After", "60")
		}
		writeError(w, code, uploadMessage(err, h.maxUpload), line)
		return
	}
	body.clear()
	w.Header().Set("Location", JobsPath+"/"+j.ID)
	writeJSON(w, http.StatusAccepted, map[string]any{"id": j.ID, "job": j})
}

func (h *Handler) serveJobs(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, h.jobs.list())
}

func (h *Handler) serveJob(w http.ResponseWriter, r *http.Request) {
	j, ok := h.jobs.get(r.PathValue("id"))
	if !ok {
		writeError(w, http.StatusNotFound, errNoJob.Error(), 0)
		return
	}
	writeJSON(w, http.StatusOK, j)
}

// serveCancel cancels a queued or running job (202 with the job), or
// deletes a finished one (200 with {"deleted": id}).
func (h *Handler) serveCancel(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	q, err := url.ParseQuery(r.URL.RawQuery)
	withModel := q.Get("model")
	for name := range q {
		if name != "model" {
			err = fmt.Errorf("unknown parameter %q: want model", name)
		}
	}
	if err == nil && withModel != "" && withModel != "1" && withModel != "0" {
		err = fmt.Errorf("model=%q: want 1 (delete the job's model too) or 0", withModel)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error(), 0)
		return
	}
	if _, finished, err := h.jobs.remove(id, withModel == "1"); err != nil {
		h.jobs.logf("server: deleting job %s: %v", id, err)
		writeError(w, http.StatusInternalServerError, "the job could not be deleted (the server's log says why)", 0)
		return
	} else if finished {
		writeJSON(w, http.StatusOK, map[string]string{"deleted": id})
		return
	}
	j, ok := h.jobs.cancel(id)
	if !ok {
		writeError(w, http.StatusNotFound, errNoJob.Error(), 0)
		return
	}
	writeJSON(w, http.StatusAccepted, j)
}

// serveEvents streams a job's changes as Server-Sent Events: an "epoch"
// event (EpochStat: epoch, loss, dev F1, best dev F1) for every finished
// epoch, those before the stream started included; "job" events whose data
// is the job's JSON (epoch, step, loss, dev F1, ...) after every batch,
// coalesced when the client is slow; and a final "end" event (the job
// again) when the job has finished (done, failed or cancelled).
func (h *Handler) serveEvents(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if _, ok := h.jobs.get(id); !ok {
		writeError(w, http.StatusNotFound, errNoJob.Error(), 0)
		return
	}
	ch, unsub := h.jobs.subscribe(id)
	defer unsub()
	fl, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	keep := time.NewTicker(15 * time.Second)
	defer keep.Stop()
	sent := 0 // epochs sent
	for {
		j, ok := h.jobs.get(id)
		if !ok { // deleted
			fmt.Fprint(w, "event: end\ndata: {}\n\n")
			if fl != nil {
				fl.Flush()
			}
			return
		}
		for _, e := range j.History {
			if e.Epoch > sent {
				b, _ := json.Marshal(e)
				fmt.Fprintf(w, "event: epoch\ndata: %s\n\n", b)
				sent = e.Epoch
			}
		}
		b, _ := json.Marshal(j)
		fmt.Fprintf(w, "event: job\ndata: %s\n\n", b)
		if j.State.final() {
			fmt.Fprintf(w, "event: end\ndata: %s\n\n", b)
			if fl != nil {
				fl.Flush()
			}
			return
		}
		if fl != nil {
			fl.Flush()
		}
	wait:
		select {
		case <-ch:
		case <-keep.C:
			fmt.Fprint(w, ": keep-alive\n\n")
			if fl != nil {
				fl.Flush()
			}
			goto wait
		case <-r.Context().Done():
			return
		case <-h.jobs.ctx.Done():
			// The server stops (asked now; the running job writes its
			// checkpoint, which may take longer than the shutdown waits
			// for requests): say so, so that a client can tell it from a
			// network failure (the job resumes when the server starts
			// again; an EventSource reconnects after the retry delay).
			fmt.Fprint(w, "retry: 10000\nevent: shutdown\ndata: {\"reason\":\"the server is stopping; the job resumes when it starts again\"}\n\n")
			if fl != nil {
				fl.Flush()
			}
			return
		}
	}
}
