package server

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func TestRun(t *testing.T) {
	h, err := New(Options{App: fstest.MapFS{"index.html": {Data: []byte("page")}}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- Run(ctx, "127.0.0.1:0", h, func(u string) { urls <- u }) }()
	var url string
	select {
	case url = <-urls:
	case err := <-done:
		t.Fatal(err)
	}
	resp, err := http.Get(url + "/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "page" {
		t.Errorf("got %q", b)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
	if err := Run(context.Background(), "256.0.0.1:1", h, nil); err == nil {
		t.Error("bad address accepted")
	}
}

func TestAddresses(t *testing.T) {
	for _, tc := range []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:8080", true},
		{"localhost:8080", true},
		{"[::1]:80", true},
		{"0.0.0.0:8080", false},
		{":8080", false},
		{"192.168.1.2:80", false},
		{"nonsense", false},
	} {
		if got := Loopback(tc.addr); got != tc.want {
			t.Errorf("Loopback(%q) = %v, want %v", tc.addr, got, tc.want)
		}
	}
	for _, tc := range []struct{ addr, want string }{
		{"127.0.0.1:8080", "http://127.0.0.1:8080"},
		{"0.0.0.0:80", "http://127.0.0.1:80"},
		{"[::]:80", "http://127.0.0.1:80"},
		{"[::1]:80", "http://[::1]:80"},
	} {
		a, err := net.ResolveTCPAddr("tcp", tc.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := URL(a); got != tc.want {
			t.Errorf("URL(%s) = %s, want %s", tc.addr, got, tc.want)
		}
	}
}

// TestRunAddressInUse: an address another program listens on is refused
// at once, saying so and how to choose another.
func TestRunAddressInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	h, err := New(Options{App: fstest.MapFS{"index.html": {Data: []byte("page")}}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	err = Run(t.Context(), ln.Addr().String(), h, nil)
	if err == nil || !strings.Contains(err.Error(), "another program listens there") || !strings.Contains(err.Error(), "--addr") {
		t.Errorf("Run on a busy address: %v; want it refused, naming --addr", err)
	}
}

// TestRunCutsSlowRequests: a shutdown with a request still running after
// the grace (a slow download) cuts it and is no failure.
func TestRunCutsSlowRequests(t *testing.T) {
	started := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		close(started)
		<-r.Context().Done() // until the connection is cut
	})
	ctx, cancel := context.WithCancel(t.Context())
	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- run(ctx, "127.0.0.1:0", h, func(u string) { urls <- u }, 50*time.Millisecond) }()
	resp, err := http.Get(<-urls + "/slow")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	<-started
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("shutdown with a slow request: %v; want no error", err)
	}
	if _, err := io.ReadAll(resp.Body); err == nil {
		t.Errorf("the slow request was not cut")
	}
}
