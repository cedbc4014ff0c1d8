package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// Run listens on addr and serves h until ctx is done, then shuts down,
// giving requests in flight five seconds (then cutting them, without an
// error). ready, when set, receives the
// server's URL once it listens (useful with port 0).
func Run(ctx context.Context, addr string, h http.Handler, ready func(url string)) error {
	ln, err := Listen(addr)
	if err != nil {
		return err
	}
	return serve(ctx, ln, h, ready, shutdownGrace)
}

// Listen listens on addr, saying what to do when another program does
// already. A caller that builds its Handler after (New resumes training
// jobs) learns first that it cannot serve.
func Listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if addrInUse(err) {
		return nil, fmt.Errorf("server: %w: another program listens there (another discspan serve or make demo?); choose another address with --addr (make demo ADDR=127.0.0.1:8081)", err)
	}
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	return ln, nil
}

// Serve is Run on a listener of Listen, which it closes.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, ready func(url string)) error {
	return serve(ctx, ln, h, ready, shutdownGrace)
}

// shutdownGrace is how long Run's shutdown waits for requests in flight.
const shutdownGrace = 5 * time.Second

// run is Run with the shutdown's grace given.
func run(ctx context.Context, addr string, h http.Handler, ready func(url string), grace time.Duration) error {
	ln, err := Listen(addr)
	if err != nil {
		return err
	}
	return serve(ctx, ln, h, ready, grace)
}

// serve is Serve with the shutdown's grace given.
func serve(ctx context.Context, ln net.Listener, h http.Handler, ready func(url string), grace time.Duration) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	if ready != nil {
		ready(URL(ln.Addr()))
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("server: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	err := srv.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		// Requests still running (a slow download, an event stream) are
		// cut: the shutdown was asked for, and is no failure.
		err = srv.Close()
	}
	if serr := <-done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	return nil
}

// URL returns the http URL of a listening address; an unspecified host
// (all interfaces) is written as 127.0.0.1.
func URL(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// Loopback reports whether addr (host:port) listens on the loopback
// interface only.
func Loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
