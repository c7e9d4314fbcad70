package session

import (
	"fmt"
	"strings"
	"testing"
)

// The quote of a crash's stderr counts the lines it leaves out between the
// cause and the tail in good English: Node's "Cannot find module" left one
// out and said "… (1 more lines)".
func TestStderrQuoteCountsTheLinesLeftOut(t *testing.T) {
	t.Parallel()
	for skipped, want := range map[int]string{1: "… (1 more line)\n", 3: "… (3 more lines)\n"} {
		var l stderrLog
		l.add("Error: Cannot find module '/nonexist.js'")
		for i := range skipped + stderrTail {
			l.add(fmt.Sprintf("    at frame %d", i))
		}
		if got := l.text(); !strings.Contains(got, want) {
			t.Errorf("%d left out: %q does not say %q", skipped, got, want)
		}
	}
}

// A crash is quoted by its error line, not the source line Node prints
// before it (which names Error too) nor the caret under it: the quote
// starts with the error whatever the stack's length.
func TestStderrQuoteStartsWithTheErrorLine(t *testing.T) {
	t.Parallel()
	stack := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "    at frame%d (node:internal/deps/undici/undici:%d:11)\n", i, 13000+i)
		}
		return b.String()
	}
	tests := []struct {
		name, stderr, want string
	}{
		{"fetch failed", "file:///app/index.js:12\n    const err = new Error(message);\n    ^\n\nTypeError: fetch failed\n" + stack(12) +
			"  [cause]: Error: getaddrinfo ENOTFOUND api.example.com\n    at GetAddrInfoReqWrap.onlookupall [as oncomplete] (node:dns:120:26) {\n  errno: -3008,\n  code: 'ENOTFOUND'\n}\n\nNode.js v22.11.0\n",
			"TypeError: fetch failed"},
		{"captureStackTrace", "/app/node_modules/undici/lib/web/fetch/index.js:31\n    Error.captureStackTrace(err);\n          ^\n\nTypeError: fetch failed\n" + stack(10) + "\nNode.js v20.18.0\n",
			"TypeError: fetch failed"},
		{"keytar", "node:internal/modules/cjs/loader:1228\n  throw err;\n  ^\n\nError: Cannot find module '/app/node_modules/keytar/build/Release/keytar.node'\nRequire stack:\n- /app/node_modules/keytar/lib/keytar.js\n- /app/dist/index.js\n" +
			stack(9) + " {\n  code: 'MODULE_NOT_FOUND',\n  requireStack: [ '/app/node_modules/keytar/lib/keytar.js', '/app/dist/index.js' ]\n}\n\nNode.js v18.20.4\n",
			"Error: Cannot find module '/app/node_modules/keytar/build/Release/keytar.node'"},
		{"esm", "node:internal/modules/esm/resolve:853\n  throw new ERR_MODULE_NOT_FOUND(packageName, fileURLToPath(base), null);\n        ^\n\nError [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod' imported from /app/dist/server.js\n" + stack(9) + " {\n  code: 'ERR_MODULE_NOT_FOUND'\n}\n\nNode.js v22.11.0\n",
			"Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod' imported from /app/dist/server.js"},
		{"go panic", "starting\npanic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a1b2c]\n\ngoroutine 1 [running]:\n" + stack(12),
			"panic: runtime error: invalid memory address or nil pointer dereference"},
	}
	for _, tc := range tests {
		var l stderrLog
		for line := range strings.Lines(tc.stderr) {
			l.add(strings.TrimRight(line, "\n"))
		}
		got := l.text()
		if !strings.HasPrefix(got, "its stderr says:\n    "+tc.want+"\n") {
			t.Errorf("%s: the quote does not start with %q:\n%s", tc.name, tc.want, got)
		}
	}
}
