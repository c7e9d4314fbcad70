package main

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"mcpwitness/record"
	"mcpwitness/session"
)

// errorCode is the machine-readable kind of an error in the documents, one
// of a small set that docs/schemas/error.json lists and README explains.
type errorCode string

const (
	codeUsage       errorCode = "usage"        // the command line is wrong (exit 2)
	codeNotFound    errorCode = "not-found"    // a complete listing does not have the tool or prompt (exit 2)
	codeConnect     errorCode = "connect"      // the server could not be reached or started, or went away (exit 1)
	codeProtocol    errorCode = "protocol"     // the server answered with a JSON-RPC error or broke the protocol (exit 1)
	codeTimeout     errorCode = "timeout"      // no answer within --timeout; the request was cancelled (exit 1)
	codeInterrupted errorCode = "interrupted"  // the request or command was cancelled by the user (exit 1 or 130)
	codeIO          errorCode = "io"           // a file or stdout could not be read or written (exit 1)
	codeCheckFailed errorCode = "check-failed" // a check refused or did not pass (exit 3)
	codeIncomplete  errorCode = "incomplete"   // a walk stopped before the end, so an answer is unknown (exit 3)
)

// errorObj is the one shape of an error in every document: the top-level
// error document's, a server's in check --config, a walk's, a request's.
type errorObj struct {
	Code    errorCode `json:"code"`
	Message string    `json:"message"`
	// ExitCode is the exit code this error ends the command with.
	ExitCode int `json:"exitCode"`
	// Cancelled: the request was cancelled (the server was sent
	// notifications/cancelled), by the user or by --timeout.
	Cancelled bool `json:"cancelled,omitempty"`
	// RPCError is the JSON-RPC error object the server answered with.
	RPCError json.RawMessage `json:"rpcError,omitempty"`
}

// errorDoc is the --json document of a command that failed before it had
// anything else to say.
type errorDoc struct {
	docHead
	// Command is the command that failed ("" when the command line could
	// not be read).
	Command string   `json:"command,omitempty"`
	Error   errorObj `json:"error"`
}

// errorDocument is the error document of command, which ends with err.
func errorDocument(command string, msg string, err error) errorDoc {
	code := exitCode(err)
	return errorDoc{docHead: headOf("error"), Command: command,
		Error: errorObj{Code: errorCodeOf(err, code), Message: msg, ExitCode: code}}
}

// namedError is an error with the code the documents give it.
type namedError struct {
	code errorCode
	err  error
}

func (e *namedError) Error() string { return e.err.Error() }
func (e *namedError) Unwrap() error { return e.err }

// withCode gives err the document error code.
func withCode(code errorCode, err error) error { return &namedError{code, err} }

// notFound is a tool or prompt that a complete listing does not have:
// exit 2, told apart from a connection failure.
func notFound(err error) error { return &exitError{exitUsage, withCode(codeNotFound, err)} }

// errorCodeOf is the document error code of err, which ends the command
// with exit code exit.
func errorCodeOf(err error, exit int) errorCode {
	var n *namedError
	var u usageError
	switch {
	case errors.As(err, &n):
		return n.code
	case errors.As(err, &u):
		return codeUsage
	case errors.Is(err, context.DeadlineExceeded):
		return codeTimeout
	case errors.Is(err, context.Canceled):
		return codeInterrupted
	}
	switch exit {
	case exitUsage:
		return codeUsage
	case exitCheck:
		return codeCheckFailed
	case 130, 129, 143: // the exits of an interrupted command (SIGINT, SIGHUP, SIGTERM)
		return codeInterrupted
	}
	return codeConnect
}

// errorObjOf is the error object of err, which ends the command with exit.
func errorObjOf(err error, exit int) *errorObj {
	return &errorObj{Code: errorCodeOf(err, exit), Message: err.Error(), ExitCode: exit}
}

// rpcErrorObj is the error object of a JSON-RPC error the server answered
// with.
func rpcErrorObj(rpc json.RawMessage) *errorObj {
	return &errorObj{Code: codeProtocol, Message: "the server answered with an error: " + record.RPCErrorText(rpc),
		ExitCode: exitConnect, RPCError: rpc}
}

// requestErrorObj is the error object of a request that ended without an
// answer, saying msg, with err its error when known. A request that ran
// out of time was cancelled as surely as one the user cancelled: the
// server was told, and the message says so.
func requestErrorObj(msg string, err error, cancelled bool) *errorObj {
	o := &errorObj{Code: codeConnect, Message: msg, ExitCode: exitConnect, Cancelled: cancelled}
	switch {
	case err != nil && errors.Is(err, context.DeadlineExceeded), strings.Contains(msg, timeoutText):
		o.Code, o.Cancelled = codeTimeout, true
	case cancelled || (err != nil && errors.Is(err, context.Canceled)):
		o.Code, o.Cancelled = codeInterrupted, true
	}
	return o
}

// timeoutText is what the session says of a request that ran out of
// time, which it then cancelled.
const timeoutText = "the request was cancelled"

// requestError is the error object of request r: nil when it was answered
// with a result (or refused, which its verdicts say).
func requestError(r *session.RequestResult) *errorObj {
	switch {
	case r.Err != nil:
		return requestErrorObj(r.Err.Error(), r.Err, r.Cancelled)
	case len(r.RPCError) > 0:
		return rpcErrorObj(r.RPCError)
	}
	return nil
}
