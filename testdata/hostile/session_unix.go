//go:build linux || darwin || freebsd

package main

import (
	"fmt"
	"os"
	"syscall"
)

// sessionReport says whether this process leads its own session, as a
// child started with setsid does: "leader", or "in session N".
func sessionReport() string {
	r, _, errno := syscall.RawSyscall(syscall.SYS_GETSID, 0, 0, 0)
	sid := int(r)
	switch {
	case errno != 0:
		return "getsid: " + errno.Error()
	case sid == os.Getpid():
		return "leader"
	}
	return fmt.Sprintf("in session %d", sid)
}
