package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
)

// signalError is the cause of a context that onInterrupt cancelled: the
// signal that stopped the work. A command stopped by one exits with status
// 128 plus its number, as a shell reports a process the signal killed (130
// for Ctrl-C), so that `discspan parse ... && next` does not go on.
type signalError struct{ sig os.Signal }

func (e *signalError) Error() string { return "interrupted (" + e.sig.String() + ")" }

// exitStatus is 128 plus the signal's number.
func (e *signalError) exitStatus() int {
	if n, ok := signalNumber(e.sig); ok {
		return 128 + n
	}
	return 130
}

// onInterrupt returns a context that the first Ctrl-C (SIGINT), SIGTERM
// or SIGHUP (a closed terminal) cancels, with a *signalError as its cause
// (context.Cause); note is then printed on stderr, and a second signal
// ends the process at once. release undoes it (call it when the work is
// over; calling it again does nothing); the note is printed by then if it
// is printed at all, and context.Cause(ctx) is then the signal's
// *signalError when one came.
func onInterrupt(stderr io.Writer, note string) (ctx context.Context, release func()) {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, stopSignals()...)
	ctx, cancel := context.WithCancelCause(context.Background())
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		select {
		case sig := <-signals:
			signal.Stop(signals) // a second signal ends the process at once
			cancel(&signalError{sig})
			fmt.Fprintln(stderr, "\n"+note)
		case <-done:
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			close(done) // before Stop: the goroutine then sees done only
			<-finished
			signal.Stop(signals)
			cancel(nil)
		})
	}
}
