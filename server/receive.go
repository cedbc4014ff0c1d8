package server

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/discspan/discspan/internal/atomicfile"
)

// jobUploadTemp is the upload being received; it is renamed to
// jobUploaded+format once the whole upload is read.
const jobUploadTemp = "upload.part"

// receive reads an upload into the directory of reserved job id: a copy
// of it, and its sentences converted to the train/dev split, as a stream
// (see convertUpload). The caller discards the job on error.
func (m *jobs) receive(id string, body io.Reader, contentType string, maxWords, maxVocab int) (converted, error) {
	d := m.jobDir(id)
	var c converted
	files := make([]*os.File, 3)
	for i, name := range []string{jobUploadTemp, jobTrain, jobDev} {
		f, err := os.Create(filepath.Join(d, name))
		if err != nil {
			closeAll(files)
			return c, fmt.Errorf("server: %w", err)
		}
		files[i] = f
	}
	c, err := convertUpload(io.TeeReader(body, files[0]), contentType, maxWords, maxVocab, files[1], files[2])
	if err == nil {
		// On disk before the job's record (written after this, synced)
		// says they are there: after a crash, a queued job's data are
		// whole.
		err = syncAll(files)
	}
	if cerr := closeAll(files); err == nil && cerr != nil {
		err = fmt.Errorf("server: %w", cerr)
	}
	if err != nil {
		return c, err
	}
	if err := os.Rename(filepath.Join(d, jobUploadTemp), filepath.Join(d, jobUploaded+c.Format.String())); err != nil {
		return c, fmt.Errorf("server: %w", err)
	}
	atomicfile.SyncDir(d)
	return c, nil
}

// syncAll syncs the files to disk and returns the first error.
func syncAll(files []*os.File) error {
	for _, f := range files {
		if err := f.Sync(); err != nil {
			return fmt.Errorf("server: saving the upload: %w", err)
		}
	}
	return nil
}

// closeAll closes the files that are open and returns the first error.
func closeAll(files []*os.File) error {
	var first error
	for _, f := range files {
		if f == nil {
			continue
		}
		if err := f.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// uploadStatus maps a failed upload to its HTTP status and the line it
// names (0: none).
func uploadStatus(err error) (code, line int) {
	var ue *uploadError
	var mb *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &ue):
		return http.StatusBadRequest, ue.Line
	case errors.As(err, &mb):
		return http.StatusRequestEntityTooLarge, 0
	case errors.Is(err, os.ErrDeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return http.StatusRequestTimeout, 0
	case errors.Is(err, errQueueFull):
		return http.StatusServiceUnavailable, 0
	case errors.Is(err, errBodyRead):
		return http.StatusBadRequest, 0
	case diskFull(err):
		return http.StatusInsufficientStorage, 0
	}
	return http.StatusInternalServerError, 0
}

// uploadMessage is the error message of a failed upload.
func uploadMessage(err error, maxUpload int64) string {
	var ue *uploadError
	var mb *http.MaxBytesError
	switch {
	case errors.As(err, &ue):
		return ue.Error()
	case errors.As(err, &mb):
		return fmt.Sprintf("treebank larger than %d bytes", maxUpload)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return "the upload was too slow: timed out"
	case errors.Is(err, errBodyRead):
		return err.Error()
	case diskFull(err):
		return "the server's disk is full: the upload could not be stored (try again later)"
	}
	// The server's own failure: its paths are for its log, not the client.
	return "the server could not store the upload (its log says why)"
}

// errBodyRead marks an error of the request body (the client's), as
// opposed to one of the server's disk.
var errBodyRead = errors.New("reading the upload")

// timedBody reads a request body under two read deadlines: the next read
// must come within idle, and the whole body within end of the start, so
// that a client sending slowly cannot hold an upload slot for long.
type timedBody struct {
	r          io.Reader
	rc         *http.ResponseController
	idle       time.Duration
	end        time.Time
	noDeadline bool // the connection does not support deadlines
}

func newTimedBody(w http.ResponseWriter, r io.Reader, idle, total time.Duration) *timedBody {
	return &timedBody{r: r, rc: http.NewResponseController(w), idle: idle, end: time.Now().Add(total)}
}

func (b *timedBody) Read(p []byte) (int, error) {
	if !b.noDeadline {
		d := time.Now().Add(b.idle)
		if b.end.Before(d) {
			d = b.end
		}
		if err := b.rc.SetReadDeadline(d); err != nil {
			b.noDeadline = true
		}
	}
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF {
		var mb *http.MaxBytesError
		if !errors.As(err, &mb) {
			err = fmt.Errorf("%w: %w", errBodyRead, err)
		}
	}
	return n, err
}

// abandonBody makes the connection close after the answer instead of
// net/http reading what is left of the request body (up to 256 KiB,
// without a deadline: a client sending it slowly would hold the
// connection): "Connection: close", and a read deadline in the past. Only
// HTTP/1 needs it: HTTP/2 resets the stream of a body left unread, and
// there a read deadline in the past would end the body for good, before
// the handler reads it.
func abandonBody(w http.ResponseWriter, r *http.Request) {
	if r.ProtoMajor != 1 {
		return
	}
	w.Header().Set("Connection", "close")
	_ = http.NewResponseController(w).SetReadDeadline(time.Now())
}

// clear removes the read deadline (after a body read to its end).
func (b *timedBody) clear() {
	if !b.noDeadline {
		b.rc.SetReadDeadline(time.Time{})
	}
}
