package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"mcpwitness/checks"
)

// junitOut is where check --junit writes its XML: a file, written whole
// to a temporary file beside it and renamed (CI never reads half), or
// stdout for "-". It is opened before any server is dialled, so that a
// path that cannot be written is a usage error at once.
type junitOut struct {
	path   string
	tmp    *os.File  // nil for stdout
	stdout io.Writer // for "-"
}

// openJUnit opens --junit's path, if one is given (nil when none), or
// says why it cannot be written, naming the path the user gave.
func (a *app) openJUnit() (*junitOut, error) {
	path := a.cfg.junit
	switch {
	case path == "":
		return nil, nil
	case path == "-" && (a.cfg.json || a.cfg.ndjson):
		return nil, usagef("--junit - writes the XML to stdout, where --json and --ndjson write too: give --junit a file")
	case path == "-":
		return &junitOut{path: path, stdout: a.stdout}, nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, usagef("--junit %s is a directory: give a file to write", path)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".junit-*.xml")
	if err == nil {
		// A report for others to read, as a file the shell would make.
		if err = tmp.Chmod(0o644); err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}
	if err != nil {
		return nil, usagef("--junit %s cannot be written: %s", path, pathCause(err, filepath.Dir(path)))
	}
	return &junitOut{path: path, tmp: tmp}, nil
}

// pathCause says why a file in dir could not be made, without the name of
// the temporary file that was tried.
func pathCause(err error, dir string) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("%v (does the directory %s exist?)", err, dir)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Sprintf("%v (is the directory %s writable?)", err, dir)
	}
	return err.Error()
}

// write writes suites as the report, with every secret a.red knows masked
// again as written (what the masked findings quote).
func (j *junitOut) write(a *app, suites []checks.JUnitSuite) error {
	var xml bytes.Buffer
	if err := checks.WriteJUnit(&xml, suites); err != nil {
		j.discard()
		return connectFailed(fmt.Errorf("--junit %s: %w", j.path, err))
	}
	out := a.red.String(xml.String())
	if j.tmp == nil {
		if _, err := io.WriteString(j.stdout, out); err != nil {
			return connectFailed(fmt.Errorf("--junit -: writing to stdout: %w", err))
		}
		return nil
	}
	_, err := io.WriteString(j.tmp, out)
	if cerr := j.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(j.tmp.Name(), j.path)
	}
	if err != nil {
		os.Remove(j.tmp.Name())
		return connectFailed(fmt.Errorf("--junit %s: %s", j.path, pathCause(err, filepath.Dir(j.path))))
	}
	return nil
}

// discard removes the temporary file of a report that will not be
// written.
func (j *junitOut) discard() {
	if j != nil && j.tmp != nil {
		j.tmp.Close()
		os.Remove(j.tmp.Name())
	}
}
