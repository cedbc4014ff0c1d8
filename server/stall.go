package server

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// DefaultStallTimeout is how long an answer may wait for the client to
// take the next bytes (Options.StallTimeout).
const DefaultStallTimeout = 30 * time.Second

// stallGuard drops a connection whose client stops reading: before each
// write of the answer the connection gets a write deadline stallTimeout
// ahead, so that a download makes progress or ends, while a long answer
// that keeps moving (a weights file on a slow link, a training job's event
// stream) runs as long as it needs. Where the connection has no deadlines
// (the Worker) it only passes the writes on.
//
// On HTTP/1 the deadline is also set when the request comes in (an answer
// of headers only, on a reused connection, is bounded too; the deadline
// only bears on writes). On HTTP/2 a write deadline resets the stream when
// it passes, writing or not, so it is set only around each write and
// cleared after it: a slow upload the handler is still reading is not cut
// off. The wrapper hides io.ReaderFrom, so files are copied through it
// rather than sent with sendfile: the price of a deadline per write.
type stallGuard struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	h2      bool // clear the deadline after each write
}

func newStallGuard(w http.ResponseWriter, r *http.Request, timeout time.Duration) *stallGuard {
	g := &stallGuard{ResponseWriter: w, rc: http.NewResponseController(w), timeout: timeout, h2: r.ProtoMajor >= 2}
	if !g.h2 {
		g.extend()
	}
	return g
}

func (g *stallGuard) extend() { _ = g.rc.SetWriteDeadline(time.Now().Add(g.timeout)) }

// done ends the deadline of a write on HTTP/2.
func (g *stallGuard) done() {
	if g.h2 {
		_ = g.rc.SetWriteDeadline(time.Time{})
	}
}

func (g *stallGuard) WriteHeader(code int) {
	g.extend()
	g.ResponseWriter.WriteHeader(code)
	g.done()
}

func (g *stallGuard) Write(b []byte) (int, error) {
	g.extend()
	defer g.done()
	return g.ResponseWriter.Write(b)
}

// finish arms the deadline once more on HTTP/2 as the handler returns:
// what it left buffered is sent after that, and would otherwise be sent
// with none. (Flushing here instead would send the headers before
// net/http could add a Content-Length.) The deadline ends with the stream.
func (g *stallGuard) finish() {
	if g.h2 {
		g.extend()
	}
}

// Flush flushes the answer (the event stream needs it).
func (g *stallGuard) Flush() {
	g.extend()
	_ = g.rc.Flush()
	g.done()
}

// Unwrap lets http.ResponseController reach the connection.
func (g *stallGuard) Unwrap() http.ResponseWriter { return g.ResponseWriter }

// maxRanges is the most byte ranges of a Range header that are honoured;
// a longer list is ignored (the whole file is sent), since hundreds of
// tiny ranges cost the server more than the file.
const maxRanges = 16

// tidyRange rewrites the Range header of a GET before http.ServeContent
// reads it (RFC 9110, section 14.2): a header that is not a valid list of
// byte ranges, or one of more than maxRanges ranges, is ignored; a
// suffix range of length 0 ("bytes=-0") is unsatisfiable, and a list of
// nothing else is answered 416 (by a start past the end of any file). A
// list of several ranges is honoured only in ascending order without
// overlaps (a suffix range only alone, an open one only last), which the
// section allows a server to require: each step back would read the file
// again from its start (the Worker's assets are a stream).
func tidyRange(h http.Header) {
	v := h.Get("Range")
	if v == "" {
		return
	}
	unit, set, ok := strings.Cut(v, "=")
	var specs []string
	for s := range strings.SplitSeq(set, ",") {
		if s = strings.TrimSpace(s); s != "" { // the list syntax allows empty elements
			specs = append(specs, s)
		}
	}
	if !ok || strings.TrimSpace(unit) != "bytes" || len(specs) == 0 || len(specs) > maxRanges {
		h.Del("Range")
		return
	}
	kept := specs[:0]
	for _, s := range specs {
		first, last, ok := strings.Cut(s, "-")
		if !ok {
			h.Del("Range")
			return
		}
		if first == "" { // the last N bytes
			n, err := strconv.ParseInt(last, 10, 64)
			if err != nil || n < 0 {
				h.Del("Range")
				return
			}
			if n == 0 {
				continue
			}
		} else {
			a, err := strconv.ParseInt(first, 10, 64)
			if err != nil || a < 0 {
				h.Del("Range")
				return
			}
			if last != "" {
				if b, err := strconv.ParseInt(last, 10, 64); err != nil || b < a {
					h.Del("Range")
					return
				}
			}
		}
		kept = append(kept, s)
	}
	if len(kept) == 0 {
		h.Set("Range", "bytes="+strconv.FormatInt(math.MaxInt64-1, 10)+"-")
		return
	}
	if len(kept) > 1 && !ascending(kept) {
		h.Del("Range")
		return
	}
	h.Set("Range", "bytes="+strings.Join(kept, ","))
}

// ascending reports whether byte range specs (checked by tidyRange) go
// forward through the file without overlaps: no suffix range ("-N"),
// whose place depends on the file's size, and an open range ("A-") only
// last.
func ascending(specs []string) bool {
	next := int64(0) // the first byte the next range may start at
	for i, s := range specs {
		first, last, _ := strings.Cut(s, "-")
		if first == "" {
			return false
		}
		a, _ := strconv.ParseInt(first, 10, 64)
		if a < next {
			return false
		}
		if last == "" {
			return i == len(specs)-1
		}
		b, _ := strconv.ParseInt(last, 10, 64)
		if b == math.MaxInt64 {
			return i == len(specs)-1
		}
		next = b + 1
	}
	return true
}
