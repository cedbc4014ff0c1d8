package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/treebank"
)

// The seed corpus of FuzzUploadErrors is in testdata/fuzz/FuzzUploadErrors/:
// valid and malformed export and discbracket uploads, with and without a
// Content-Type.

// FuzzUploadErrors checks the parsing of a training upload (the body of
// POST /api/train) on any input: it never panics; an upload it accepts has
// sentences in a known format; an upload it refuses gets an *uploadError
// that names the offending line (1 to one past the last line, and in the
// 400 answer's "line" and message), except for the two refusals that are
// about the whole upload: an empty one, one without any sentence and one
// with too few.
func FuzzUploadErrors(f *testing.F) {
	f.Add([]byte("(ROOT (S (N 0=a) (V 1=b)))\n"), "")
	f.Add([]byte("(ROOT (S (N 0=a) (V 1=b))\n"), "")
	f.Add([]byte("#BOS 1\na\tN\t--\t--\t500\n#500\tS\t--\t--\t0\n#EOS 1\n"), "")
	f.Add([]byte("#BOS 1\na\tN\t--\t--\t501\n#EOS 1\n"), "text/x-export")
	f.Add([]byte("hello\n"), "")
	f.Fuzz(func(t *testing.T, data []byte, ctype string) {
		c, err := convertUpload(bytes.NewReader(data), ctype, 0, 0, io.Discard, io.Discard)
		if err == nil {
			if c.Train+c.Dev < MinUploadSentences || (c.Format != treebank.Export && c.Format != treebank.Discbracket) {
				t.Fatalf("accepted %+v", c)
			}
			return
		}
		var ue *uploadError
		if !errors.As(err, &ue) {
			t.Fatalf("error of type %T: %v", err, err)
		}
		if ue.Line == 0 {
			switch {
			case ue.Msg == "empty treebank" && len(bytes.TrimSpace(data)) == 0:
			case ue.Msg == "no sentences in the treebank":
			case strings.Contains(ue.Msg, fmt.Sprintf("want at least %d", MinUploadSentences)):
			default:
				t.Fatalf("error without a line number: %q", ue.Error())
			}
			return
		}
		if lines := bytes.Count(data, []byte("\n")) + 1; ue.Line < 0 || ue.Line > lines+1 {
			t.Fatalf("error at line %d of a %d-line upload: %q", ue.Line, lines, ue.Error())
		}
		if want := fmt.Sprintf("line %d: ", ue.Line); !strings.HasPrefix(ue.Error(), want) {
			t.Fatalf("message %q does not start with %q", ue.Error(), want)
		}
		// The answer to the client carries the line too.
		rec := httptest.NewRecorder()
		writeError(rec, http.StatusBadRequest, ue.Error(), ue.Line)
		var got struct {
			Error string `json:"error"`
			Line  int    `json:"line"`
		}
		// (JSON replaces invalid UTF-8 that the message quotes.)
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || got.Line != ue.Line || !strings.HasPrefix(got.Error, fmt.Sprintf("line %d: ", ue.Line)) {
			t.Fatalf("answer %s (%v), want line %d", rec.Body, err, ue.Line)
		}
	})
}
