package session

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// openBrowser opens u with $BROWSER if set (its first command, as other
// command line tools read it), else the system opener. It returns the
// command used. A browser command that keeps running is left to run; one
// that fails at once is an error.
func openBrowser(ctx context.Context, u string) (string, error) {
	var argv []string
	if b := os.Getenv("BROWSER"); b != "" {
		first, _, _ := strings.Cut(b, ":")
		argv = strings.Fields(first)
	} else {
		switch runtime.GOOS {
		case "darwin":
			argv = []string{"open"}
		case "windows":
			argv = []string{"rundll32", "url.dll,FileProtocolHandler"}
		default:
			argv = []string{"xdg-open"}
		}
	}
	if len(argv) == 0 {
		return "", errors.New("$BROWSER names no command")
	}
	cmd := exec.Command(argv[0], append(argv[1:], u)...)
	if err := cmd.Start(); err != nil {
		return argv[0], err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return argv[0], err
		}
	case <-time.After(2 * time.Second):
		// Still running (a browser in the foreground): leave it.
	case <-ctx.Done():
	}
	return argv[0], nil
}
