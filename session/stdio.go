package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcpwitness/record"
)

// Timings of a child's end. Stopping escalates within stopStep each
// (stdin closed, SIGTERM, SIGKILL); after the process has exited, its pipes
// get pipeGrace to deliver what is left before our ends are closed, since a
// detached grandchild may hold them open for ever. An error waits up to
// endWait for a failing child to exit and say why on stderr.
const (
	stopStep  = 250 * time.Millisecond
	pipeGrace = 300 * time.Millisecond
	endWait   = 300 * time.Millisecond
)

// child is a stdio server process. Its stdout is read line by line here:
// every line is recorded as it came, lines that are not JSON are recorded
// and kept from the SDK (which would drop the connection over one), and the
// rest are passed on to the SDK through a pipe.
type child struct {
	cmd   *exec.Cmd
	tap   *tap
	log   *record.Log
	limit *frameLimit
	// step is the wait between the steps of stopping it (see [child.stop]).
	step time.Duration

	stdin  io.WriteCloser
	toSDK  *io.PipeWriter
	fromUs *io.PipeReader
	// outR and errR are our ends of its stdout and stderr.
	outR, errR *os.File

	exited    chan struct{} // closed when the process has exited
	waited    chan struct{} // closed when wait has said so in the log
	readers   sync.WaitGroup
	closePipe sync.Once
	stderr    stderrLog

	mu          sync.Mutex
	exitErr     error
	stopped     bool // we asked it to stop
	stdinClosed bool // we closed its stdin
	// last is the last frame passed to the SDK: when it is not JSON-RPC,
	// it is what ended the connection.
	last []byte
	// quitFirst is set when the server ended (exited, or closed its stdout)
	// while its stdin was still open: its end is then the cause of a
	// failure, not a consequence of ours.
	quitFirst bool
}

func startChild(t Target, tp *tap, log *record.Log, limit *frameLimit, step time.Duration) (*child, error) {
	cmd := exec.Command(t.Command[0], t.Command[1:]...)
	cmd.Env = ChildEnv(os.Environ(), t)
	cmd.Dir = t.Dir
	// A session of its own: no controlling terminal, so it cannot write to
	// /dev/tty past the sanitiser; and, as the session's leader, a process
	// group of its own, so stopping the group reaches what it started
	// (npx → node).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}

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
	c := &child{cmd: cmd, tap: tp, log: log, limit: limit, step: step, stdin: stdin, toSDK: pw, fromUs: pr,
		outR: outR, errR: errR, exited: make(chan struct{}), waited: make(chan struct{})}
	c.readers.Add(2)
	go c.readStdout(outR)
	go func() {
		defer c.readers.Done()
		readStderr(errR, log, &c.stderr)
	}()
	go c.wait()
	return c, nil
}

func startError(t Target, err error) error {
	if t.Dir != "" {
		if _, statErr := os.Stat(t.Dir); errors.Is(statErr, os.ErrNotExist) {
			return fmt.Errorf("cannot start %q: the working directory %q (--cwd) does not exist", t.Command[0], t.Dir)
		}
	}
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
		// The command came after -- or from a config file's entry.
		return fmt.Errorf("cannot start %q: program not found; check the command (after --, or the config entry's command) and PATH", t.Command[0])
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
	// Lines reach the SDK only once readStdout has checked them against the
	// frame limit, which names --max-frame; the SDK's own cap would only
	// end the connection with a vaguer message.
	return &mcp.IOTransport{Reader: c.fromUs, Writer: &lineTap{w: c.stdin, tap: c.tap, closer: closerFunc(c.closeStdin)}, MaxLineLength: -1}
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }

// closeStdin closes the child's stdin, noting that we did.
func (c *child) closeStdin() error {
	c.mu.Lock()
	c.stdinClosed = true
	c.mu.Unlock()
	return c.stdin.Close()
}

// ended notes that the server ended on its own if its stdin is still open.
func (c *child) ended() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.stdinClosed {
		c.quitFirst = true
	}
}

// readStdout reads the child's stdout one line at a time, holding at most
// the frame limit: a longer line ends the connection.
func (c *child) readStdout(r *os.File) {
	defer c.readers.Done()
	defer r.Close()
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if int64(len(line)+len(bytes.TrimRight(chunk, "\r\n"))) > c.limit.max {
			c.toSDK.CloseWithError(c.limit.exceeded("frame", 0))
			return
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if trimmed := bytes.TrimRight(line, "\r\n"); len(bytes.TrimSpace(trimmed)) > 0 {
			trimmed, valid := c.tap.receive(trimmed) // cut if too deep; nothing for a stray answer
			if b := bytes.TrimSpace(trimmed); valid && (b[0] == '{' || b[0] == '[') {
				c.mu.Lock()
				c.last = append(c.last[:0], b...)
				c.mu.Unlock()
				// A failed write means the SDK side is gone; keep recording
				// what arrives.
				_, _ = c.toSDK.Write(append(trimmed, '\n'))
			}
		}
		if cap(line) > 1<<20 {
			line = nil // do not hold on to one big frame's memory
		}
		line = line[:0]
		if err != nil {
			c.ended()
			c.toSDK.CloseWithError(io.EOF)
			return
		}
	}
}

func (c *child) wait() {
	defer close(c.waited)
	err := c.cmd.Wait()
	c.ended()
	c.mu.Lock()
	c.exitErr = err
	stopped := c.stopped
	c.mu.Unlock()
	close(c.exited)
	// Let the readers take what is left before saying it ended.
	c.release(pipeGrace)
	if !stopped {
		c.log.Append(record.Event{Kind: record.KindClosed, Text: "server exited: " + c.exitText()})
	}
}

// release waits up to grace for the readers to reach the end of the pipes,
// then closes our ends so that nothing holding them (a detached grandchild)
// keeps the readers waiting.
func (c *child) release(grace time.Duration) {
	done := make(chan struct{})
	go func() { c.readers.Wait(); close(done) }()
	select {
	case <-done:
		return
	case <-time.After(grace):
	}
	c.closePipe.Do(func() {
		c.outR.Close()
		c.errR.Close()
	})
	<-done
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

// stderrText quotes the child's stderr, indented, or returns "".
func (c *child) stderrText() string { return c.stderr.text() }

// invalidFrame explains the last frame passed to the SDK if it is not
// JSON-RPC, which makes the SDK end the connection; it returns "" when the
// frame is good.
func (c *child) invalidFrame() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.last) == 0 {
		return ""
	}
	err := notJSONRPC(c.last)
	if err == nil {
		return ""
	}
	quote := string(c.last)
	if len(quote) > stderrQuote {
		quote = cutUTF8(quote, stderrQuote) + "…"
	}
	return fmt.Sprintf("the server sent a frame that is not valid JSON-RPC (%v): %s", err, quote)
}

// notJSONRPC says why frame is not a JSON-RPC message the SDK can take, or
// returns nil.
func notJSONRPC(frame []byte) error {
	if _, err := jsonrpc.DecodeMessage(frame); err != nil {
		return err
	}
	var m struct {
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if json.Unmarshal(frame, &m) == nil && m.Method == "" && m.Result == nil && m.Error == nil {
		return errors.New("an answer with neither result nor error")
	}
	return nil
}

// quitOnItsOwn reports whether the server ended before we closed its stdin.
func (c *child) quitOnItsOwn() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.quitFirst
}

// describeEnd explains a failure of the connection by the child's fate,
// waiting up to endWait for it.
func (c *child) describeEnd() string {
	c.settle(endWait)
	var parts []string
	// A clean exit after we closed its stdin is what a server should do:
	// no news, and no cause.
	if x := c.exitText(); x != "" && (x != "exit status 0" || c.quitOnItsOwn()) {
		parts = append(parts, "the server exited ("+x+")")
	}
	if s := c.stderrText(); s != "" {
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// settle waits up to wait for the process to exit and its readers to take
// the last lines it wrote.
func (c *child) settle(wait time.Duration) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-c.exited:
	case <-timer.C:
		return
	}
	done := make(chan struct{})
	go func() { c.readers.Wait(); close(done) }()
	select {
	case <-done:
	case <-timer.C:
	}
}

// stop ends the child within about a second whatever it does: stdin
// closed, then SIGTERM to its group, then SIGKILL, c.step apart. A process
// that has not gone even after SIGKILL is left to the wait goroutine, which
// reaps it when it goes; our pipe ends are closed either way.
func (c *child) stop() {
	c.mu.Lock()
	c.stopped = true
	c.mu.Unlock()
	_ = c.closeStdin()
	steps := []struct {
		wait time.Duration
		then syscall.Signal // 0: give up waiting
	}{{c.step, syscall.SIGTERM}, {c.step, syscall.SIGKILL}, {c.step / 2, 0}}
	for _, step := range steps {
		timer := time.NewTimer(step.wait)
		select {
		case <-c.exited:
			timer.Stop()
			c.finish()
			return
		case <-timer.C:
		}
		if step.then != 0 {
			_ = syscall.Kill(-c.cmd.Process.Pid, step.then)
		}
	}
	c.finish()
}

func (c *child) finish() {
	// Anything of its group still holding the pipes open goes too.
	_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
	c.fromUs.Close()
	c.release(pipeGrace)
	select {
	case <-c.exited:
		// Nothing of the child's is logged after the session is closed.
		<-c.waited
	default:
	}
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
			l.tap.frame(record.Send, line)
		}
		l.buf = l.buf[i+1:]
	}
	l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lineTap) Close() error { return l.closer.Close() }
