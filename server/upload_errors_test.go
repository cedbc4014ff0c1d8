package server

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// A body that breaks off (a malformed chunk) gets a 400 that says so once:
// the body's reader and the treebank's both said "reading the upload".
func TestUploadBrokenChunk(t *testing.T) {
	_, srv := limitServer(t, Options{}, nil)
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req := "POST " + TrainPath + " HTTP/1.1\r\nHost: " + strings.TrimPrefix(srv.URL, "http://") + "\r\nAuthorization: Bearer " + testToken +
		"\r\nTransfer-Encoding: chunked\r\n\r\nzzzz\r\nabc\r\n"
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	msg := errorOf(t, b).Error
	if resp.StatusCode != http.StatusBadRequest || strings.Count(msg, "reading the upload") != 1 || !strings.Contains(msg, "chunk") {
		t.Errorf("%s: %q", resp.Status, msg)
	}
}
