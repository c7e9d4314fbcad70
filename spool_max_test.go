package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"mcpwitness/record"
	"mcpwitness/session"
)

// --spool-max reads sizes as --max-frame does; 0 is no cap; a bad value
// is a usage error naming the flag and the value.
func TestSpoolMaxFlag(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{
		"512M": 512 << 20, "2G": 2 << 30, "100MiB": 100 << 20, "1.5g": 3 << 29, "0": -1, "0MiB": -1,
	} {
		cfg, err := parseArgs([]string{"--spool-max", in})
		if err != nil || cfg.spoolMax != want {
			t.Errorf("--spool-max %s: %d, %v; want %d", in, cfg.spoolMax, err, want)
		}
	}
	if cfg, err := parseArgs(nil); err != nil || cfg.spoolMax != 0 {
		t.Errorf("no --spool-max: %d, %v; want 0, the default cap", cfg.spoolMax, err)
	}
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--spool-max", "lots"}, `--spool-max wants a size such as 64MiB, 1MB, 512k or a number of bytes, not "lots" (0 for no cap)`},
		{[]string{"--spool-max", "-1G"}, `not "-1G"`},
		{[]string{"--spool-max", "512"}, `--spool-max "512" is 512 bytes, less than 1 MiB: the export spool would stop almost at once (did you mean 512MiB?)`},
		{[]string{"--spool-max", "99999999999g"}, `--spool-max "99999999999g" is more than any disk holds`},
		{[]string{"tools", "--spool-max", "1G"}, "--spool-max is not a flag of tools (only of the terminal UI)"},
		{[]string{"--spool-max", "1G", "--record", "run.jsonl"}, "with --record FILE, e exports the record, which is never capped"},
	} {
		code, _, errs := runSafe(t, c.args...)
		if code != exitUsage || !strings.Contains(errs, c.says) {
			t.Errorf("%q: exit %d, %q; want exit %d saying %q", c.args, code, errs, exitUsage, c.says)
		}
	}
}

// The terminal UI's spool, as openLog makes it, is bounded by --spool-max:
// at the cap the session's log says so (the UI shows its events), and the
// export, which keeps what fitted and the note, reads in report.
func TestTUISpoolStopsAtSpoolMax(t *testing.T) {
	t.Parallel()
	cfg, err := parseArgs(nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.spoolMax = 8 << 10 // below what the flag takes, to fill it quickly
	cfg.target = session.Target{Command: []string{"true"}}
	a := &app{cfg: cfg, red: cfg.target.Secrets()}
	closeAll, err := a.openLog()
	if err != nil {
		t.Fatal(err)
	}
	sub := a.log.Subscribe()
	defer sub.Close()
	for range 100 {
		a.log.Append(record.Event{Kind: record.KindStderr, Text: strings.Repeat("s", 200)})
	}
	var note record.Event
	deadline := time.After(2 * time.Minute) // a hang guard
	for note.Kind == "" {
		select {
		case ev := <-sub.C():
			if record.SpoolStopped(ev) {
				note = ev
			}
		case <-deadline:
			t.Fatal("the log never said the spool stopped")
		}
	}
	if !strings.HasPrefix(note.Text, "the export spool reached 8 KiB at ") {
		t.Errorf("the log says %q", note.Text)
	}
	ex, err := a.spool.Export(context.Background(), t.TempDir())
	if err != nil || !strings.HasSuffix(ex.Stopped, "it reached its cap of 8 KiB") {
		t.Fatalf("export: %+v, %v", ex, err)
	}
	a.log.Close()
	if err := closeAll(); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runFileCommand(t, "report", false, ex.Path)
	if code != exitOK || !strings.Contains(out, "the export spool reached 8 KiB at") {
		t.Errorf("report of the export: exit %d, %s\n%s", code, errs, out)
	}
}
