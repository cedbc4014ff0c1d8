//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strconv"
	"syscall/js"
	"time"

	"github.com/syumai/workers/cloudflare/fetch"
)

// assetsHost is the host of the URLs fetched from the ASSETS binding; the
// binding only looks at the path.
const assetsHost = "http://assets.invalid/"

// assetsFS is an fs.FS over a Worker's static assets (the ASSETS binding),
// enough for server.NewReadOnly. Files whose size it is told (setSize: the
// weight files, from the model list) open without a request, and are
// fetched when read or checked (assetFile.Check: before any answer but a
// 304 to the exact ETag, so that a missing file is a 404); a fetched body
// is read only as far as needed.
// Seeking forward skips bytes, seeking backward fetches again (wrangler's
// local asset server ignores Range requests). Other files are fetched
// whole when opened, and those read through readAll are kept in memory.
type assetsFS struct {
	client *fetch.Client
	sizes  map[string]int64  // by name
	files  map[string][]byte // by name
}

func newAssetsFS(binding js.Value) *assetsFS {
	return &assetsFS{
		client: fetch.NewClient(fetch.WithBinding(binding)),
		sizes:  map[string]int64{},
		files:  map[string][]byte{},
	}
}

// setSize records the size of name, which then opens without a request.
func (a *assetsFS) setSize(name string, size int64) { a.sizes[name] = size }

// readAll returns the content of name and keeps it for later Opens.
func (a *assetsFS) readAll(name string) ([]byte, error) {
	if b, ok := a.files[name]; ok {
		return b, nil
	}
	resp, err := a.fetch(name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer closeBody(resp.Body)
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	a.files[name] = b
	return b, nil
}

// fetch GETs name from the assets; the answer must be 200 OK.
func (a *assetsFS) fetch(name string) (*http.Response, error) {
	req, err := fetch.NewRequest(context.Background(), http.MethodGet, assetsHost+name, nil)
	if err != nil {
		return nil, err
	}
	resp, err := a.client.Do(req, nil)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		closeBody(resp.Body)
		if resp.StatusCode == http.StatusNotFound {
			return nil, fs.ErrNotExist
		}
		return nil, fmt.Errorf("assets answered %d", resp.StatusCode)
	}
	return resp, nil
}

// closeBody closes a fetched body, cancelling its stream even when it was
// never read (syumai/workers' Close cancels only a stream it has read
// from).
func closeBody(body io.ReadCloser) {
	if raw, ok := body.(interface{ GetRawJSBody() js.Value }); ok {
		if s := raw.GetRawJSBody(); s.Truthy() && !s.Get("locked").Bool() {
			s.Call("cancel")
			return
		}
	}
	body.Close()
}

// contentLength returns the Content-Length of resp, -1 when it has none
// (syumai/workers reports a missing one as 0).
func contentLength(resp *http.Response) int64 {
	if n, err := strconv.ParseInt(resp.Header.Get("Content-Length"), 10, 64); err == nil && n >= 0 {
		return n
	}
	return -1
}

// Open opens name: without a request when its size is known, else by
// fetching it whole.
func (a *assetsFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) || name == "." {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if size, ok := a.sizes[name]; ok {
		return &assetFile{fsys: a, name: name, size: size}, nil
	}
	b, ok := a.files[name]
	if !ok {
		resp, err := a.fetch(name)
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		b, err = io.ReadAll(resp.Body)
		closeBody(resp.Body)
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
	}
	return &assetFile{fsys: a, name: name, size: int64(len(b)), data: b}, nil
}

// assetFile is an opened asset: an io.ReadSeeker over data when the file
// was read whole, else over a stream fetched at the first Read.
type assetFile struct {
	fsys *assetsFS
	name string
	size int64
	data []byte // the whole file, when read at Open

	body io.ReadCloser // the fetched stream, at pos; nil before the first Read
	pos  int64
	off  int64 // where the next Read reads
}

func (f *assetFile) Stat() (fs.FileInfo, error) { return assetInfo{f}, nil }

func (f *assetFile) Read(p []byte) (int, error) {
	if f.off >= f.size {
		return 0, io.EOF
	}
	if f.data != nil {
		n := copy(p, f.data[f.off:])
		f.off += int64(n)
		return n, nil
	}
	if f.body == nil || f.off < f.pos {
		if err := f.refetch(); err != nil {
			return 0, &fs.PathError{Op: "read", Path: f.name, Err: err}
		}
	}
	if f.off > f.pos {
		n, err := io.CopyN(io.Discard, f.body, f.off-f.pos)
		f.pos += n
		if err != nil {
			return 0, &fs.PathError{Op: "read", Path: f.name, Err: fmt.Errorf("skipping to %d: %w", f.off, err)}
		}
	}
	if rest := f.size - f.off; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := f.body.Read(p)
	f.pos += int64(n)
	f.off += int64(n)
	if err == io.EOF && f.off < f.size {
		err = &fs.PathError{Op: "read", Path: f.name, Err: io.ErrUnexpectedEOF}
	}
	return n, err
}

// Check fetches a file opened without a request (its size known), so that
// a missing asset, or one of another size than the model list says, is an
// error before any answer is written (server.serveWeights); the fetched
// stream serves the reads that follow.
func (f *assetFile) Check() error {
	if f.data != nil || f.body != nil {
		return nil
	}
	if err := f.refetch(); err != nil {
		return &fs.PathError{Op: "open", Path: f.name, Err: err}
	}
	return nil
}

// refetch fetches the file again, from its start.
func (f *assetFile) refetch() error {
	if f.body != nil {
		closeBody(f.body)
		f.body = nil
	}
	resp, err := f.fsys.fetch(f.name)
	if err != nil {
		return err
	}
	if n := contentLength(resp); n >= 0 && n != f.size {
		closeBody(resp.Body)
		return fmt.Errorf("the asset is %d bytes, the model list says %d", n, f.size)
	}
	f.body, f.pos = resp.Body, 0
	return nil
}

func (f *assetFile) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += f.off
	case io.SeekEnd:
		offset += f.size
	default:
		return 0, &fs.PathError{Op: "seek", Path: f.name, Err: fs.ErrInvalid}
	}
	if offset < 0 {
		return 0, &fs.PathError{Op: "seek", Path: f.name, Err: fs.ErrInvalid}
	}
	f.off = offset
	return offset, nil
}

func (f *assetFile) Close() error {
	if f.body != nil {
		closeBody(f.body)
		f.body = nil
	}
	return nil
}

// assetInfo is the fs.FileInfo of an asset: a regular file of known size
// and unknown modification time.
type assetInfo struct{ f *assetFile }

func (i assetInfo) Name() string       { return i.f.name }
func (i assetInfo) Size() int64        { return i.f.size }
func (i assetInfo) Mode() fs.FileMode  { return 0o444 }
func (i assetInfo) ModTime() time.Time { return time.Time{} }
func (i assetInfo) IsDir() bool        { return false }
func (i assetInfo) Sys() any           { return nil }
