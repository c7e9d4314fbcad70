package session

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"mcpwitness/paging"
)

// Closing a session leaves no goroutine of ours or the SDK's behind.
func TestCloseLeavesNoGoroutines(t *testing.T) {
	url := demoHTTP(t)
	targets := map[string]Target{
		"stdio": demoStdio(t),
		"http":  {URL: url},
		"dies":  hostile(t, "die-on-call"),
	}
	for name, target := range targets {
		t.Run(name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			s, err := Dial(context.Background(), target, &Options{Timeout: 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			s.Walk(context.Background(), paging.Tools())
			s.Call(context.Background(), "tool_1_1", nil, nil)
			s.Close()
			s.Log().Close()
			deadline := time.Now().Add(time.Minute)
			for runtime.NumGoroutine() > before {
				if time.Now().After(deadline) {
					buf := make([]byte, 1<<20)
					n := runtime.Stack(buf, true)
					t.Fatalf("%d goroutines before, %d after close:\n%s", before, runtime.NumGoroutine(), ours(string(buf[:n])))
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}

// ours keeps the stacks that mention this module or the SDK.
func ours(stacks string) string {
	var keep []string
	for _, g := range strings.Split(stacks, "\n\n") {
		if strings.Contains(g, "mcpwitness") || strings.Contains(g, "go-sdk") {
			keep = append(keep, g)
		}
	}
	return strings.Join(keep, "\n\n")
}
