package record

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func init() {
	if os.Getenv(spoolKillEnv) != "" {
		spoolUntilKilled()
	}
}

// A spool leaves no file behind, not even when its process is killed
// (SIGKILL runs no cleanup): the spool's file has no name once made, and
// exports still read it whole.
func TestSpoolLeavesNoFileWhenKilled(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), spoolKillEnv+"=1", "TMPDIR="+tmp)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// The child says how many lines it exported once its spool is made.
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "exported 4 lines" {
		t.Fatalf("the child said %q (%v); want its export of 4 lines", line, err)
	}
	if names := dirNames(t, tmp); len(names) != 1 || !strings.HasPrefix(names[0], "mcpwitness-") {
		t.Fatalf("while the spool is open %s holds %q; want the export alone", tmp, names)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if names := dirNames(t, tmp); len(names) != 1 {
		t.Errorf("a killed process left %q in %s; want the export alone", names, tmp)
	}
}

// spoolKillEnv makes the test binary a process that makes a spool, writes
// three events, exports them into $TMPDIR, says so and waits to be killed.
const spoolKillEnv = "MCPWITNESS_TEST_SPOOL_KILL"

func spoolUntilKilled() {
	target := TargetInfo{Transport: "stdio", Command: []string{"true"}}
	s, err := NewSpool(NewHeader("test", target), NewRedactor(nil), nil)
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	for i := 1; i <= 3; i++ {
		s.Write(stderrEvent(i, "line"))
	}
	ex, err := s.Export(context.Background(), os.TempDir())
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Printf("exported %d lines\n", ex.Lines)
	select {}
}

// Close leaves nothing of the spool either.
func TestSpoolCloseLeavesNoFile(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	s := newTestSpool(t)
	s.Write(stderrEvent(1, "line"))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if names := dirNames(t, tmp); len(names) != 0 {
		t.Errorf("%s holds %q after Close", tmp, names)
	}
}
