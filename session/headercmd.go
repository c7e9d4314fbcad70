package session

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"mcpwitness/record"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"time"
)

// headerCmdTimeout bounds one run of --header-cmd.
const headerCmdTimeout = 10 * time.Second

// errHeaderCmdSlow is the cause of a run of --header-cmd that did not end
// within its bound.
var errHeaderCmdSlow = errors.New("no answer")

// HeaderCmdError is a request that --header-cmd failed: the command's
// exit or timeout, and what it wrote to stderr. It never holds what the
// command printed on stdout (the vended values).
type HeaderCmdError struct {
	Method, URL string
	Err         error
	Stderr      string
}

func (e *HeaderCmdError) Error() string {
	msg := fmt.Sprintf("--header-cmd failed for %s %s: %v", e.Method, e.URL, e.Err)
	if e.Stderr != "" {
		msg += "; its stderr: " + e.Stderr
	}
	return msg
}

func (e *HeaderCmdError) Unwrap() error { return e.Err }

// vendHeaders runs the header command for one request (sh -c CMD) with
// the request's method, URL and body digest in its environment and the
// body on its stdin, and returns the headers it printed, one "Name: value"
// a line. shown is the request's URL as errors show it; the command has
// limit to answer. Each value is added to secrets.
func vendHeaders(ctx context.Context, cmdline string, req *http.Request, body []byte, shown string, limit time.Duration, secrets *record.Redactor) (http.Header, error) {
	sum := sha256.Sum256(body)
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", cmdline)
	cmd.Env = append(os.Environ(),
		"MCPWITNESS_METHOD="+req.Method,
		"MCPWITNESS_URL="+req.URL.String(),
		"MCPWITNESS_BODY_SHA256="+hex.EncodeToString(sum[:]),
	)
	cmd.Stdin = bytes.NewReader(body)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &limitedBuffer{buf: &stderr, max: 4 << 10}
	cmd.WaitDelay = time.Second
	fail := func(err error) error {
		return &HeaderCmdError{Method: req.Method, URL: shown, Err: err, Stderr: strings.TrimSpace(stderr.String())}
	}
	if err := cmd.Run(); err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("%w within %s", errHeaderCmdSlow, limit)
		}
		return nil, fail(err)
	}
	h := http.Header{}
	sc := bufio.NewScanner(&stdout)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			// The line is not quoted: it may hold a secret.
			return nil, fail(fmt.Errorf("line %d of its output is not 'Name: value'", n))
		}
		value = strings.TrimSpace(value)
		// Every vended value is a secret, before it can be sent.
		for _, part := range record.SecretParts(name, value, true) {
			secrets.Add(name, part)
		}
		h.Add(name, value)
	}
	return h, nil
}

// limitedBuffer keeps the first max bytes written to it and drops the
// rest, so a chatty command cannot fill memory.
type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
