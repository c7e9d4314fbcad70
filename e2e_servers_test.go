package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mcpwitness/internal/hostiletest"
)

// TestEndToEndSeveralServers opens a config of the demo server twice (one
// server, two names), a server with a cursor loop and one that cannot
// start: three servers on the servers' line, the failed one with its
// cause in the picker, switching by keyboard, an export holding every
// server's events, and open of that export showing the same servers.
func TestEndToEndSeveralServers(t *testing.T) {
	t.Parallel()
	needTmux(t)
	work := t.TempDir()
	entry := func(cmd string, args ...string) map[string]any { return map[string]any{"command": cmd, "args": args} }
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"demo":      entry(testBinary(t), "demo-server"),
		"demo-copy": entry(testBinary(t), "demo-server"),
		"loop":      entry(hostiletest.Build(t), "-mode", "cursor-loop"),
		"missing":   entry("/nonexistent/mcp-server"),
	}})
	config := filepath.Join(work, "mcp.json")
	if err := os.WriteFile(config, b, 0o600); err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(work, "digest.key")
	x := startTmux(t, work, 140, 40, shellLine(t, "shell before mcpwitness", "--config", config, "--digest-key", key))

	x.wait(`● 1 demo = demo-copy · config [0-9a-f]{12}`)
	x.wait(`✗ 3 missing`)
	x.wait(`✓ \d+ pages · \d+ tools`)
	x.keys("S")
	s := x.wait(`(?s)Servers.*3 missing +✗ failed.*program not found`)
	if !strings.Contains(s, "2 loop") || !strings.Contains(s, "gen ") {
		t.Errorf("picker:\n%s", s)
	}
	x.keys("3")
	x.wait(`could not connect`)
	x.keys("S", "Up", "Enter")
	x.wait(`● 2 loop · config`)
	x.wait(`cursor`)

	x.keys("e")
	x.wait(`exported \d+ lines to \S+mcpwitness-\d{8}-\d{6}\.jsonl`)
	files, _ := filepath.Glob(filepath.Join(work, "mcpwitness-*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("export files in %s: %v", work, files)
	}
	x.keys("q")
	x.wait(`(?s)exit 0\s*$`)

	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var sources []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var ev struct {
			Source []string `json:"source"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) == nil && len(ev.Source) > 0 {
			if n := strings.Join(ev.Source, " = "); !slices.Contains(sources, n) {
				sources = append(sources, n)
			}
		}
	}
	slices.Sort(sources)
	if want := []string{"demo = demo-copy", "loop", "missing"}; !slices.Equal(sources, want) {
		t.Errorf("the export's servers are %q, want %q", sources, want)
	}

	o := startTmux(t, work, 140, 40, shellLine(t, "shell before open", "open", filepath.Base(files[0])))
	o.wait(`REPLAY`)
	o.wait(`✗ 3 missing`)
	o.keys("S")
	o.wait(`(?s)1 demo = demo-copy +● ready.*3 missing +✗ failed.*could not connect`)
}
