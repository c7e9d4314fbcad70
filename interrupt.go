package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"mcpwitness/record"
)

// signalError is the cause of a context a signal cancelled.
type signalError struct{ sig syscall.Signal }

func (e signalError) Error() string { return "interrupted by " + signalName(e.sig) }

// signalName is the conventional name of sig (SIGINT for an interrupt).
func signalName(sig syscall.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return sig.String()
}

// signalContext is a context cancelled by the first SIGINT, SIGTERM or
// SIGHUP, with a [signalError] naming it as its cause. A hangup (a
// terminal window closed under the TUI) ends it as q does — the export
// spool removed, the server stopped, the record closed — not by the
// signal's default, which left the spool in the temp dir.
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		select {
		case sig := <-sigs:
			s, _ := sig.(syscall.Signal)
			cancel(signalError{s})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		cancel(nil)
	}
}

// interrupted ends a headless command that a signal cancelled: its log
// gets a last event saying so (in --ndjson and --record, which are then
// complete up to the cancel), and it exits 128 plus the signal's number
// (130 for SIGINT), whatever the command made of the cancel. err is the
// command's own outcome, returned as it is when no signal came.
func (a *app) interrupted(ctx context.Context, err error) error {
	var sig signalError
	if !errors.As(context.Cause(ctx), &sig) {
		return err
	}
	text := fmt.Sprintf("%s: the command was cancelled; what came before is complete", sig)
	a.log.Append(record.Event{Kind: record.KindInterrupted, Text: text})
	return &exitError{128 + int(sig.sig), withCode(codeInterrupted, errors.New(sig.Error()))}
}
