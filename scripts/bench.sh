#!/usr/bin/env bash
# Runs BenchmarkWalk10kStdio (10,000 tools in 100 pages over stdio) several
# times and prints, per variant, the median ms/walk, client CPU ms/walk, B/op
# and allocs/op, and how far mcpwitness is from the floor: a bare go-sdk
# client listing the same pages. The project aims to stay within 15% of the
# floor in walk time.
#
# Usage: scripts/bench.sh
#   COUNT=5        runs of each variant (medians are taken over them)
#   BENCHTIME=10x  walks per run (go test -benchtime)
#   TARGET=15      the allowed slowdown over the floor, in percent
#   STRICT=1       exit 3 when mcpwitness is over the target
#   OUT=FILE       keep the raw go test output there (else a temp file)
# The test binary is built once and run COUNT times, each run timing every
# variant in turn, so that a busy machine slows them alike. If benchstat is
# on PATH, its summary is printed too.
#
# To profile one variant:
#   go test ./bench -run '^$' -bench 'Walk10kStdio/mcpwitness$' -benchtime 10x \
#     -cpuprofile cpu.out -memprofile mem.out -o bench.test
#   go tool pprof -top -cum bench.test cpu.out
set -euo pipefail

cd "$(dirname "$0")/.."
count=${COUNT:-5}
benchtime=${BENCHTIME:-10x}
target=${TARGET:-15}
out=${OUT:-$(mktemp -t mcpwitness-bench.XXXXXX)}
work=$(mktemp -d -t mcpwitness-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "BenchmarkWalk10kStdio: $count runs of $benchtime walks ($(go version | awk '{print $3}'), $(nproc 2>/dev/null || echo '?') CPUs)"
echo "raw output: $out"
echo
GOTOOLCHAIN=local go test -c -o "$work/bench.test" ./bench
: >"$out"
for ((i = 1; i <= count; i++)); do
	# The test binary runs in its package directory, as go test would.
	(cd bench && "$work/bench.test" -test.run '^$' -test.bench '^BenchmarkWalk10kStdio$' \
		-test.benchmem -test.count 1 -test.benchtime "$benchtime") | tee -a "$out"
done
echo

if command -v benchstat >/dev/null 2>&1; then
	benchstat "$out" || true
	echo
fi

awk -v target="$target" '
function median(list,    n, v, i, j, t) {
	n = split(list, v, " ")
	for (i = 2; i <= n; i++) {
		t = v[i] + 0
		for (j = i - 1; j >= 1 && v[j] + 0 > t; j--) v[j + 1] = v[j]
		v[j + 1] = t
	}
	if (n == 0) return 0
	if (n % 2) return v[(n + 1) / 2]
	return (v[n / 2] + v[n / 2 + 1]) / 2
}
function pct(a, b) { return (a / b - 1) * 100 }
function verdict(name, p) {
	if (p >= 0) return sprintf("%s is %.1f%% slower than the floor", name, p)
	return sprintf("%s is %.1f%% faster than the floor", name, -p)
}
/^BenchmarkWalk10kStdio\// {
	name = $1
	sub(/^BenchmarkWalk10kStdio\//, "", name)
	sub(/-[0-9]+$/, "", name)
	if (!(name in runs)) order[++nv] = name
	runs[name]++
	for (i = 3; i < NF; i += 2) {
		vals[name, $(i + 1)] = vals[name, $(i + 1)] " " $i
		if ($(i + 1) == "ms/walk") walk = $i
	}
	# Each run times the floor first; pair every variant with it.
	if (name == "go-sdk-floor") runfloor = walk
	else if (runfloor > 0) paired[name] = paired[name] " " sprintf("%.1f", (walk / runfloor - 1) * 100)
}
END {
	if (nv == 0) { print "no benchmark results"; exit 1 }
	printf "%-20s %5s %10s %12s %14s %12s %11s\n", "variant", "runs", "ms/walk", "cpu-ms/walk", "B/op", "allocs/op", "pages/walk"
	for (k = 1; k <= nv; k++) {
		n = order[k]
		ms[n] = median(vals[n, "ms/walk"])
		cpu[n] = median(vals[n, "cpu-ms/walk"])
		printf "%-20s %5d %10.1f %12.1f %14.0f %12.0f %11.0f\n", n, runs[n], ms[n], cpu[n],
			median(vals[n, "B/op"]), median(vals[n, "allocs/op"]), median(vals[n, "pages/walk"])
	}
	print ""
	floor = ms["go-sdk-floor"]
	if (floor <= 0 || !("mcpwitness" in ms)) { print "missing the floor or mcpwitness"; exit 1 }
	p = pct(ms["mcpwitness"], floor)
	printf "%s (median %.1f vs %.1f ms/walk, ratio %.1f%%); target <= %d%%: %s\n",
		verdict("mcpwitness", p), ms["mcpwitness"], floor, ms["mcpwitness"] / floor * 100, target,
		(p <= target ? "met" : "NOT MET")
	if ("mcpwitness+record" in ms) {
		r = pct(ms["mcpwitness+record"], floor)
		printf "%s (median %.1f ms/walk, ratio %.1f%%), recording to io.Discard\n",
			verdict("mcpwitness+record", r), ms["mcpwitness+record"], ms["mcpwitness+record"] / floor * 100
	}
	for (k = 1; k <= nv; k++) {
		n = order[k]
		if (n in paired) printf "%s vs the floor, run by run (%%):%s; median %.1f%%\n", n, paired[n], median(paired[n])
	}
	if (cpu["go-sdk-floor"] > 0) {
		printf "client CPU per walk: mcpwitness %.1f%% of the floor", cpu["mcpwitness"] / cpu["go-sdk-floor"] * 100
		if ("mcpwitness+record" in cpu) printf ", mcpwitness+record %.1f%%", cpu["mcpwitness+record"] / cpu["go-sdk-floor"] * 100
		print " (steadier than wall time on a busy machine; the server is not counted)"
	}
	exit (p <= target ? 0 : 3)
}' "$out" && status=0 || status=$?

if [[ $status -eq 3 && ${STRICT:-0} != 1 ]]; then
	status=0
fi
exit "$status"
