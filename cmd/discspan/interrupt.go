package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// onInterrupt returns a context that the first Ctrl-C (SIGINT) or SIGTERM
// cancels; note is then printed on stderr, and a second Ctrl-C ends the
// process at once. release undoes it (call it when the work is over); the
// note is printed by then if it is printed at all.
func onInterrupt(stderr io.Writer, note string) (ctx context.Context, release func()) {
	signalled, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		select {
		case <-signalled.Done():
			stop() // a second Ctrl-C ends the process at once
			fmt.Fprintln(stderr, "\n"+note)
		case <-done:
		}
	}()
	return signalled, func() {
		close(done) // before stop: the goroutine then sees done only
		<-finished
		stop()
	}
}
