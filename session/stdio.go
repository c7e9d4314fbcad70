package session

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stderrTail is how many of the child's last stderr lines an error quotes.
const stderrTail = 8

// child is a stdio server process. Its stdout is read line by line here:
// every line is recorded as it came, lines that are not JSON are recorded
// and kept from the SDK (which would drop the connection over one), and the
// rest are passed on to the SDK through a pipe.
type child struct {
	cmd *exec.Cmd
	tap *tap
	log *Log

	stdin  io.WriteCloser
	toSDK  *io.PipeWriter
	fromUs *io.PipeReader

	exited  chan struct{} // closed when the process has exited
	readers sync.WaitGroup

	mu      sync.Mutex
	exitErr error
	tail    []string
	stopped bool // we asked it to stop
}

func startChild(t Target, tp *tap, log *Log) (*child, error) {
	cmd := exec.Command(t.Command[0], t.Command[1:]...)
	cmd.Env = append(os.Environ(), t.Env...)
	cmd.Dir = t.Dir
	// A group of its own, so stopping it reaches what it started (npx → node).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}

	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	if err := cmd.Start(); err != nil {
		outR.Close()
		outW.Close()
		errR.Close()
		errW.Close()
		return nil, startError(t, err)
	}
	outW.Close()
	errW.Close()

	pr, pw := io.Pipe()
	c := &child{cmd: cmd, tap: tp, log: log, stdin: stdin, toSDK: pw, fromUs: pr, exited: make(chan struct{})}
	c.readers.Add(2)
	go c.readStdout(outR)
	go c.readStderr(errR)
	go c.wait()
	return c, nil
}

func startError(t Target, err error) error {
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("cannot start %q: program not found; check the command after -- (and PATH)", t.Command[0])
	}
	if errors.Is(err, os.ErrPermission) {
		return fmt.Errorf("cannot start %q: permission denied; is it executable?", t.Command[0])
	}
	if t.Dir != "" {
		if _, statErr := os.Stat(t.Dir); statErr != nil {
			return fmt.Errorf("cannot start %q: working directory %q: %v", t.Command[0], t.Dir, statErr)
		}
	}
	return fmt.Errorf("cannot start %q: %w", t.Command[0], err)
}

// transport is what the SDK connects through.
func (c *child) transport() mcp.Transport {
	return &mcp.IOTransport{Reader: c.fromUs, Writer: &lineTap{w: c.stdin, tap: c.tap, closer: c.stdin}}
}

func (c *child) readStdout(r *os.File) {
	defer c.readers.Done()
	defer r.Close()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if trimmed := bytes.TrimRight(line, "\r\n"); len(bytes.TrimSpace(trimmed)) > 0 {
			trimmed, valid := c.tap.receive(trimmed) // cut if too deep; nothing for a stray answer
			if b := bytes.TrimSpace(trimmed); valid && (b[0] == '{' || b[0] == '[') {
				if _, werr := c.toSDK.Write(append(trimmed, '\n')); werr != nil {
					// The SDK side is gone; keep recording what arrives.
					continue
				}
			}
		}
		if err != nil {
			c.toSDK.CloseWithError(io.EOF)
			return
		}
	}
}

func (c *child) readStderr(r *os.File) {
	defer c.readers.Done()
	defer r.Close()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		c.mu.Lock()
		c.tail = append(c.tail, line)
		if len(c.tail) > stderrTail {
			c.tail = c.tail[len(c.tail)-stderrTail:]
		}
		c.mu.Unlock()
		c.log.Append(Event{Kind: KindStderr, Text: line})
	}
}

func (c *child) wait() {
	err := c.cmd.Wait()
	c.mu.Lock()
	c.exitErr = err
	stopped := c.stopped
	c.mu.Unlock()
	close(c.exited)
	if !stopped {
		// Let the readers take what is left before saying it ended.
		done := make(chan struct{})
		go func() { c.readers.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(500 * time.Millisecond):
		}
		c.log.Append(Event{Kind: KindClosed, Text: "server exited: " + c.exitText()})
	}
}

// exitText says how the process ended, or "" while it runs.
func (c *child) exitText() string {
	select {
	case <-c.exited:
	default:
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.exitErr == nil {
		return "exit status 0"
	}
	var ee *exec.ExitError
	if errors.As(c.exitErr, &ee) {
		return ee.ProcessState.String()
	}
	return c.exitErr.Error()
}

// stderrText returns the last lines of the child's stderr, indented, or "".
func (c *child) stderrText() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.tail) == 0 {
		return ""
	}
	return "its stderr ends with:\n    " + strings.Join(c.tail, "\n    ")
}

// describeEnd explains a failure of the connection by the child's fate.
func (c *child) describeEnd(wait time.Duration) string {
	select {
	case <-c.exited:
		// Let the readers take the last lines the process wrote.
		done := make(chan struct{})
		go func() { c.readers.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(wait):
		}
	case <-time.After(wait):
	}
	var parts []string
	if x := c.exitText(); x != "" {
		parts = append(parts, "the server exited ("+x+")")
	}
	if s := c.stderrText(); s != "" {
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// stop ends the child: stdin closed, then SIGTERM to its group, then
// SIGKILL, waiting a little between each.
func (c *child) stop(ctx context.Context) {
	c.mu.Lock()
	c.stopped = true
	c.mu.Unlock()
	c.stdin.Close()
	steps := []syscall.Signal{0, syscall.SIGTERM, syscall.SIGKILL}
	for _, sig := range steps {
		if sig != 0 {
			_ = syscall.Kill(-c.cmd.Process.Pid, sig)
		}
		select {
		case <-c.exited:
			c.finish()
			return
		case <-time.After(time.Second):
		case <-ctx.Done():
		}
	}
	<-c.exited
	c.finish()
}

func (c *child) finish() {
	// Anything still holding the pipes open belongs to the group we ended.
	_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
	c.fromUs.Close()
	c.readers.Wait()
}

// lineTap records each line written to the child's stdin.
type lineTap struct {
	w      io.Writer
	closer io.Closer
	tap    *tap
	mu     sync.Mutex
	buf    []byte
}

func (l *lineTap) Write(p []byte) (int, error) {
	l.mu.Lock()
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		line := bytes.TrimRight(l.buf[:i], "\r")
		if len(line) > 0 {
			l.tap.frame(Send, line)
		}
		l.buf = l.buf[i+1:]
	}
	l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lineTap) Close() error { return l.closer.Close() }
