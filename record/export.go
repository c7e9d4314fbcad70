package record

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// exportName is the name of the n-th session file exported at t, counting
// from 1: mcpwitness-YYYYMMDD-HHMMSS.jsonl, then -2, -3… before .jsonl for
// the files of the same second.
func exportName(t time.Time, n int) string {
	base := "mcpwitness-" + t.Format("20060102-150405")
	if n > 1 {
		return fmt.Sprintf("%s-%d.jsonl", base, n)
	}
	return base + ".jsonl"
}

// exportLines copies the first end bytes of src, whole lines of a session
// file, to a new file in dir named for now (see [exportName]), and returns
// its absolute path and how many lines it holds.
//
// It is atomic: the bytes go to a temporary file in dir, which is synced
// and only then given its name, so a name never shows a partial file, not
// even after a crash. An existing file is never replaced. On failure
// nothing is left behind. src is streamed, never read whole.
func exportLines(ctx context.Context, src io.ReaderAt, end int64, dir string, now time.Time) (string, int64, error) {
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, ".mcpwitness-export-*.tmp")
	if err != nil {
		return "", 0, fmt.Errorf("creating a file in %s: %w", dir, err)
	}
	defer os.Remove(tmp.Name())
	counter := &lineCounter{w: tmp}
	if _, err := io.Copy(counter, io.NewSectionReader(src, 0, end)); err != nil {
		tmp.Close()
		return "", 0, fmt.Errorf("writing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return "", 0, fmt.Errorf("syncing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return "", 0, fmt.Errorf("closing %s: %w", tmp.Name(), err)
	}
	path, err := placeExport(ctx, tmp.Name(), dir, now)
	if err != nil {
		return "", 0, err
	}
	return path, counter.lines, nil
}

// placeExport gives the finished file tmp the first free export name in
// dir and returns the name's absolute path.
func placeExport(ctx context.Context, tmp, dir string, now time.Time) (string, error) {
	for n := 1; n < 1000; n++ {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		path := filepath.Join(dir, exportName(now, n))
		err := placeNew(tmp, path)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("naming the export %s: %w", path, err)
		}
		syncDir(dir)
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		return path, nil
	}
	return "", fmt.Errorf("no free file name for %s and its numbered variants in %s", exportName(now, 1), dir)
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

// syncDir makes a new name in dir durable. Where a directory cannot be
// synced the name still stands; it is only less certain to survive a
// power cut.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// wholeLines returns the length of f's first size bytes up to and including
// their last newline: a line being written right now is left out.
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
