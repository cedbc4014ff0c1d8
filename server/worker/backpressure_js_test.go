package main

import (
	"bytes"
	"errors"
	"net/http"
	"strconv"
	"sync/atomic"
	"syscall/js"
	"testing"
	"time"

	"github.com/discspan/discspan/internal/jsawait"
)

// fakeResponse is the part of syumai/workers' ResponseWriter that
// backpressured uses: the body as a JavaScript stream, and Ready, which
// sends the head.
type fakeResponse struct {
	header http.Header
	code   int
	body   chan js.Value
	ready  atomic.Bool
}

func (f *fakeResponse) Header() http.Header  { return f.header }
func (f *fakeResponse) WriteHeader(code int) { f.code = code }
func (f *fakeResponse) Write([]byte) (int, error) {
	return 0, errors.New("written to the library's body, not to a stream of its own")
}
func (f *fakeResponse) WriteRawJSBody(body js.Value) { f.body <- body }
func (f *fakeResponse) Ready()                       { f.ready.Store(true) }

// A body with a Content-Length is written into a stream of its own,
// chunk by chunk as the client takes them: while the client reads
// nothing, the handler is held after a chunk or two instead of copying the
// whole file into memory; a client that goes away ends the handler's copy
// with an error. The held count is an upper bound that no slowness of the
// machine can break (the pauses only give an unheld handler the time to
// run ahead).
func TestBackpressured(t *testing.T) {
	if js.Global().Get("FixedLengthStream").IsUndefined() {
		t.Fatal("no FixedLengthStream: run the test with node --require testdata/workerd.cjs (make test-worker)")
	}
	const chunks, size = 64, 16 << 10
	want := bytes.Repeat([]byte("0123456789abcdef"), chunks*size/16)

	for _, tc := range []struct {
		name string
		gone bool // the client reads one chunk and goes away
	}{{"client reads all", false}, {"client goes away", true}} {
		t.Run(tc.name, func(t *testing.T) {
			var written atomic.Int64
			var handlerErr atomic.Value
			done := make(chan struct{})
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				defer close(done)
				w.Header().Set("Content-Length", strconv.Itoa(len(want)))
				w.WriteHeader(http.StatusOK)
				for i := range chunks {
					if _, err := w.Write(want[i*size : (i+1)*size]); err != nil {
						handlerErr.Store(err)
						return
					}
					written.Add(1)
				}
			})
			resp := &fakeResponse{header: http.Header{}, body: make(chan js.Value, 1)}
			req, err := http.NewRequest(http.MethodGet, "/weights/x.safetensors", nil)
			if err != nil {
				t.Fatal(err)
			}
			go backpressured(h).ServeHTTP(resp, req)
			reader := (<-resp.body).Call("getReader")
			read := func() []byte {
				t.Helper()
				v, err := jsawait.Await(reader.Call("read"))
				if err != nil {
					t.Fatal(err)
				}
				if v.Get("done").Bool() {
					return nil
				}
				b := make([]byte, v.Get("value").Get("length").Int())
				js.CopyBytesToGo(b, v.Get("value"))
				return b
			}
			got := read()
			for range 20 {
				time.Sleep(5 * time.Millisecond) // the handler's turn, were it free to run
			}
			if n := written.Load(); n > 3 || !resp.ready.Load() {
				t.Fatalf("the client took one chunk: the handler wrote %d of %d (ready %v)", n, chunks, resp.ready.Load())
			}
			if tc.gone {
				if _, err := jsawait.Await(reader.Call("cancel")); err != nil {
					t.Fatal(err)
				}
				<-done
				if handlerErr.Load() == nil || written.Load() == chunks {
					t.Fatalf("the client went away: the handler wrote %d chunks, error %v", written.Load(), handlerErr.Load())
				}
				return
			}
			for b := read(); b != nil; b = read() {
				got = append(got, b...)
			}
			<-done
			if !bytes.Equal(got, want) || handlerErr.Load() != nil {
				t.Fatalf("the client read %d of %d bytes (equal %v), handler error %v", len(got), len(want), bytes.Equal(got, want), handlerErr.Load())
			}
		})
	}
}
