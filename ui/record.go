package ui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"mcpwitness/session"
	"mcpwitness/themes"
)

// recording streams the redacted session log to a spool file, which e
// exports, and to the --record file when there is one.
type recording struct {
	dir   string // where exports go
	now   func() time.Time
	spool *os.File
	rec   *session.Recorder
	user  *os.File
	urec  *session.Recorder

	mu sync.Mutex // serialises exports
}

func newRecording(cfg Config) (*recording, error) {
	h := session.NewHeader(cfg.Tool, cfg.Target.Describe())
	r := &recording{dir: cfg.ExportDir, now: time.Now}
	if r.dir == "" {
		r.dir = "."
	}
	f, err := os.CreateTemp("", "mcpwitness-spool-*.jsonl")
	if err != nil {
		return nil, fmt.Errorf("creating the session spool file: %w", err)
	}
	r.spool = f
	if r.rec, err = session.NewRecorder(f, h, cfg.Target.Secrets()); err != nil {
		r.close()
		return nil, err
	}
	if cfg.RecordPath != "" {
		u, err := os.OpenFile(cfg.RecordPath, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) {
			r.close()
			return nil, fmt.Errorf("--record %s: the file exists; choose another name or remove it (a record is never overwritten)", cfg.RecordPath)
		}
		if err != nil {
			r.close()
			return nil, fmt.Errorf("--record: %w", err)
		}
		r.user = u
		if r.urec, err = session.NewRecorder(u, h, cfg.Target.Secrets()); err != nil {
			r.close()
			return nil, fmt.Errorf("--record: %w", err)
		}
	}
	return r, nil
}

// write records one event; it runs as a log sink, under the log's lock.
func (r *recording) write(ev session.Event) {
	r.rec.Write(ev)
	if r.urec != nil {
		r.urec.Write(ev)
	}
}

func (r *recording) close() {
	if r.user != nil {
		r.user.Sync()
		r.user.Close()
	}
	if r.spool != nil {
		name := r.spool.Name()
		r.spool.Close()
		os.Remove(name)
	}
}

// export copies the record so far to a new file in the export directory,
// atomically: a temporary file in the same directory, synced, then linked
// to a name no file has (an existing file is never replaced). On failure
// nothing is left behind and the spool is untouched.
func (r *recording) export(ctx context.Context) (string, int64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.rec.Err(); err != nil {
		return "", 0, fmt.Errorf("the session spool failed earlier (%w)", err)
	}
	src, err := os.Open(r.spool.Name())
	if err != nil {
		return "", 0, fmt.Errorf("reading the session spool: %w", err)
	}
	defer src.Close()
	st, err := src.Stat()
	if err != nil {
		return "", 0, fmt.Errorf("reading the session spool: %w", err)
	}
	// A line being written right now is left for the next export. The spool
	// is streamed, never read whole: long sessions make large files.
	end, err := wholeLines(src, st.Size())
	if err != nil {
		return "", 0, fmt.Errorf("reading the session spool: %w", err)
	}

	tmp, err := os.CreateTemp(r.dir, ".mcpwitness-export-*.tmp")
	if err != nil {
		return "", 0, fmt.Errorf("creating a file in %s: %w", r.dir, err)
	}
	defer os.Remove(tmp.Name())
	counter := &lineCounter{w: tmp}
	if _, err := io.Copy(counter, io.NewSectionReader(src, 0, end)); err != nil {
		tmp.Close()
		return "", 0, fmt.Errorf("writing %s: %w", tmp.Name(), err)
	}
	lines := counter.lines
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return "", 0, fmt.Errorf("syncing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return "", 0, fmt.Errorf("closing %s: %w", tmp.Name(), err)
	}
	base := "mcpwitness-" + r.now().Format("20060102-150405")
	for n := 1; n < 1000; n++ {
		if ctx.Err() != nil {
			return "", 0, ctx.Err()
		}
		name := base + ".jsonl"
		if n > 1 {
			name = fmt.Sprintf("%s-%d.jsonl", base, n)
		}
		path := filepath.Join(r.dir, name)
		err := placeNew(tmp.Name(), path)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", 0, fmt.Errorf("naming the export %s: %w", path, err)
		}
		syncDir(r.dir)
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		return path, lines, nil
	}
	return "", 0, fmt.Errorf("no free file name for %s*.jsonl in %s", base, r.dir)
}

// placeNew gives the file at tmp the name path, failing with fs.ErrExist
// when path exists. A hard link does that atomically; where links are not
// supported, the name is reserved first and then replaced by a rename.
func placeNew(tmp, path string) error {
	err := os.Link(tmp, path)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	f.Close()
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(path)
		return err
	}
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

func lookupTheme(name string) (themes.Palette, bool) { return themes.Lookup(name) }

func themeList() string {
	out := ""
	for i, n := range themes.Names() {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

// wholeLines returns the length of f's first size bytes up to and including
// their last newline.
func wholeLines(f io.ReaderAt, size int64) (int64, error) {
	buf := make([]byte, 64<<10)
	for end := size; end > 0; {
		start := max(0, end-int64(len(buf)))
		chunk := buf[:end-start]
		if _, err := f.ReadAt(chunk, start); err != nil && err != io.EOF {
			return 0, err
		}
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	return 0, nil
}

// lineCounter counts the newlines written through it.
type lineCounter struct {
	w     io.Writer
	lines int64
}

func (c *lineCounter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.lines += int64(bytes.Count(p[:n], []byte{'\n'}))
	return n, err
}
