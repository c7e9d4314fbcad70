package main

import "errors"

// codedError is an error with a machine-readable code, which a --json
// error document carries as error.code (e.g. "incomplete": the walk
// stopped before it could find what was asked for).
type codedError struct {
	code string
	err  error
}

func (e codedError) Error() string { return e.err.Error() }

func (e codedError) Unwrap() error { return e.err }

// errorCodeOf is the code of the first [codedError] in err's chain, "" when
// there is none.
func errorCodeOf(err error) string {
	var c codedError
	if errors.As(err, &c) {
		return c.code
	}
	return ""
}
