// Package bench holds the benchmarks that measure mcpwitness against its
// floor: the same work done by a minimal program using only the Go MCP SDK.
//
// BenchmarkWalk10kStdio walks 10,000 tools in 100 pages of 100 from the
// embedded demo server, run as a child process over stdio (the built
// mcpwitness binary, "demo-server --page-size 100 --filler N"). Its
// sub-benchmarks run side by side in one go test run:
//
//	go-sdk-floor       mcp.ClientSession.ListTools in a cursor loop, nothing else
//	mcpwitness         session.Session.Walk as "mcpwitness tools" runs it: raw
//	                   wire tap, event log without history, page parsing,
//	                   generation counter
//	mcpwitness+record  the same with a session recorder writing to io.Discard
//
// Each reports ms/walk, pages/walk, cpu-ms/walk and allocations. CPU time
// and allocations are this process's only: the server is the same child
// binary for every variant. The floor also proves, by counting the requests
// its connection writes, that every page was asked of the server and none
// answered by the SDK's list cache. scripts/bench.sh runs the benchmark
// several times and prints medians and the ratio to the floor, which the
// project aims to keep within 15%.
//
// scripts/bench.sh also compares whole processes: the mcpwitness binary
// (tools --json, tools, tools --record) against bench/lister, a minimal
// go-sdk program that lists the same pages, each run on a fresh demo server
// of its own, alternately, printing median wall-time ratios and the peak RSS
// of the Go process alone. PARTS=tui times the terminal UI against the
// headless walk (launch to the walk's done event in each one's record, the
// UI driven in tmux) and prints the UI's peak RSS at 10k and 100k tools.
//
// The package has no code of its own outside its tests; bench/lister is
// the whole-process floor.
package bench
