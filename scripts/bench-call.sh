#!/usr/bin/env bash
# Compares one tool call made by mcpwitness with the same call made by
# f/mcptools v0.7.1, as whole processes: `call add a=2 b=3` against
# `mcpwitness demo-server` over stdio, each client starting the server
# itself. Runs alternate (mcptools, the bench/caller floors, then mcpwitness) so that
# a busy machine slows all alike; it prints each one's median wall time,
# the ratio of the medians, and the median and quartiles of the ratio taken
# pair by pair (each mcpwitness run over the mcptools run just before it),
# which a load that drifts during the runs moves less. The project aims at
# ≤ 1.2× mcptools.
#
# bench/caller is the floor of a client that checks what it calls: a bare
# go-sdk program that reads tools/list up to the page listing the tool,
# calls it, and ends the session as the SDK does (closing the server's
# stdin and waiting for it to exit). mcptools lists nothing and does not
# wait for the server; the caller's own ratio says how much of the gap any
# such client pays. `caller -subscribe` also asks to hear of list changes,
# as mcpwitness does so that a definition gone stale during the call is
# seen (on 2026-07-28 that is one more request, subscriptions/listen, and
# its cancellation): the floor of a client that does what mcpwitness does
# on the wire.
#
# mcptools v0.7.1 (mcp-go v0.24.1) asks for protocol 2024-11-05, where
# mcpwitness and the caller ask for the newest the SDK speaks (2026-07-28:
# server/discover, a listen stream for list changes, _meta on every
# request), which costs the bare caller some 6 ms on its own. The same
# call on mcptools's protocol (mcpwitness call --protocol 2024-11-05, and
# the caller's -list floor there) is timed too, so that the protocol and
# the client are told apart. So is the caller on that protocol without
# -list: mcptools's own exchange (initialize, the call), from a client that
# waits for the server to exit; what it costs over mcptools is the wait.
#
# Usage: scripts/bench-call.sh [extra mcpwitness call flags, e.g. --walk-all]
#   RUNS=21       runs of each client (medians are taken over them)
#   TARGET=1.2    the allowed ratio
#   STRICT=1      exit 3 when mcpwitness is over the target
#   MCPTOOLS=BIN  an mcptools binary to use instead of building one
#   PHASES=N      then N more mcpwitness calls with --record, and where
#                 their time goes: the median ms from launch to each moment
#                 the record holds (see phases below)
#
# mcptools is built from the Go module proxy with its version pinned in a
# scratch module (go get, then go build: `go install …@v0.7.1` asks the
# proxy for the module's version list, which it may refuse).
set -euo pipefail

cd "$(dirname "$0")/.."
runs=${RUNS:-21}
target=${TARGET:-1.2}
work=$(mktemp -d -t mcpwitness-bench-call.XXXXXX)
trap 'rm -rf "$work"' EXIT

bin="$work/mcpwitness" caller="$work/caller"
GOTOOLCHAIN=local go build -o "$bin" .
GOTOOLCHAIN=local go build -o "$caller" ./bench/caller

mt=${MCPTOOLS:-}
if [[ -z $mt ]]; then
	mt="$work/mcptools"
	mkdir "$work/mt"
	(
		cd "$work/mt"
		go mod init bench-call.local >/dev/null 2>&1
		printf '//go:build tools\n\npackage x\n\nimport _ "github.com/f/mcptools/cmd/mcptools"\n' >tools.go
		GOFLAGS=-mod=mod go get github.com/f/mcptools@v0.7.1 >/dev/null 2>&1 ||
			{ echo "the Go module proxy would not give github.com/f/mcptools@v0.7.1" >&2; exit 1; }
		GOFLAGS=-mod=mod go build -o "$mt" github.com/f/mcptools/cmd/mcptools
	)
fi

# time_ms CMD...: runs CMD once, prints its wall time in ms (to the µs); a
# failed call stops the script with what it said. The clock is bash's own
# ($EPOCHREALTIME, in µs): a `date` on each side would add its own start,
# some milliseconds, to every run alike and pull each ratio towards 1.
time_ms() {
	local t0 t1
	t0=${EPOCHREALTIME/[.,]/}
	if ! "$@" >"$work/out" 2>"$work/err"; then
		echo "failed: $*" >&2
		head -5 "$work/out" "$work/err" >&2
		exit 1
	fi
	t1=${EPOCHREALTIME/[.,]/}
	grep -q 5 "$work/out" || { echo "no sum of 5 from: $*" >&2; head -5 "$work/out" >&2; exit 1; }
	awk -v us=$((t1 - t0)) 'BEGIN {printf "%.3f\n", us / 1e3}'
}

: >"$work/mt.ms"
: >"$work/sdk.ms"
: >"$work/sub.ms"
: >"$work/mw.ms"
: >"$work/sdkold.ms"
: >"$work/mwold.ms"
: >"$work/bare.ms"
old=2024-11-05
for ((i = 0; i < runs; i++)); do
	time_ms "$mt" call add --params '{"a":2,"b":3}' "$bin" demo-server >>"$work/mt.ms"
	time_ms "$caller" -list -args '{"a":2,"b":3}' add -- "$bin" demo-server >>"$work/sdk.ms"
	time_ms "$caller" -list -subscribe -args '{"a":2,"b":3}' add -- "$bin" demo-server >>"$work/sub.ms"
	time_ms "$bin" call add a=2 b=3 "$@" -- "$bin" demo-server >>"$work/mw.ms"
	time_ms "$caller" -list -protocol "$old" -args '{"a":2,"b":3}' add -- "$bin" demo-server >>"$work/sdkold.ms"
	time_ms "$bin" call add a=2 b=3 --protocol "$old" "$@" -- "$bin" demo-server >>"$work/mwold.ms"
	time_ms "$caller" -protocol "$old" -args '{"a":2,"b":3}' add -- "$bin" demo-server >>"$work/bare.ms"
done

median() { sort -n "$1" | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
a=$(median "$work/mt.ms")
b=$(median "$work/mw.ms")
c=$(median "$work/sdk.ms")
d=$(median "$work/sub.ms")
ratio=$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.2f", b/a}')
sdkratio=$(awk -v a="$a" -v c="$c" 'BEGIN {printf "%.2f", c/a}')
subratio=$(awk -v a="$a" -v d="$d" 'BEGIN {printf "%.2f", d/a}')
oversub=$(awk -v b="$b" -v d="$d" 'BEGIN {printf "%.2f", b/d}')
# pairs A B: the median and quartiles of B's runs over A's, pair by pair.
pairs() {
	paste "$1" "$2" | awk '{printf "%.4f\n", $2 / $1}' | sort -n |
		awk '{v[NR]=$1} END {printf "%.2f× (quartiles %.2f–%.2f)", (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2, v[int((NR+3)/4)], v[int((3*NR+3)/4)]}'
}
pairs=$(pairs "$work/mt.ms" "$work/mw.ms")
e=$(median "$work/sdkold.ms")
f=$(median "$work/mwold.ms")
oldsdk=$(awk -v a="$a" -v e="$e" 'BEGIN {printf "%.2f", e/a}')
oldratio=$(awk -v a="$a" -v f="$f" 'BEGIN {printf "%.2f", f/a}')
oldpairs=$(pairs "$work/mt.ms" "$work/mwold.ms")
g=$(median "$work/bare.ms")
bareratio=$(awk -v a="$a" -v g="$g" 'BEGIN {printf "%.2f", g/a}')
printf 'call add a=2 b=3, %d runs each, median wall time\n' "$runs"
printf '  mcptools v0.7.1  %6.1f ms\n' "$a"
printf '  go-sdk, listing  %6.1f ms  (%s×; bench/caller -list)\n' "$c" "$sdkratio"
printf '  … and subscribed %6.1f ms  (%s×; bench/caller -list -subscribe)\n' "$d" "$subratio"
printf '  mcpwitness       %6.1f ms  (%s×, target ≤ %s×; %s× the subscribed go-sdk caller)\n' "$b" "$ratio" "$target" "$oversub"
printf '  pair by pair     %s\n' "$pairs"
printf 'on mcptools'"'"'s protocol, %s:\n' "$old"
printf '  go-sdk, no list  %6.1f ms  (%s×; bench/caller -protocol %s: mcptools'"'"'s exchange, and the wait for the server to exit)\n' "$g" "$bareratio" "$old"
printf '  go-sdk, listing  %6.1f ms  (%s×; bench/caller -list -protocol %s)\n' "$e" "$oldsdk" "$old"
printf '  mcpwitness       %6.1f ms  (%s×; call --protocol %s)\n' "$f" "$oldratio" "$old"
printf '  pair by pair     %s\n' "$oldpairs"
# phases N: N calls with --record; for each moment, the median over the
# runs of its ms from launch: the session's start (the record opened), the
# first request sent, the server's first answer (how long it took to
# start), tools/list answered, tools/call sent and answered, the session
# closed (the server's exit waited for), and the process's exit. The
# record costs the call a little of its own.
phases() {
	local i c t0 t1 rec="$work/phases.jsonl"
	: >"$work/phases"
	for ((i = 0; i < $1; i++)); do
		rm -f "$rec"
		t0=${EPOCHREALTIME/[.,]/}
		"$bin" call add a=2 b=3 --record "$rec" -- "$bin" demo-server >/dev/null 2>&1
		t1=${EPOCHREALTIME/[.,]/}
		{
			sed -n '1s/.*"started":"\([^"]*\)".*/\1/p' "$rec"
			for pat in '"dir":"send"' '"dir":"recv"' '"dir":"recv","method":"tools/list"' \
				'"dir":"send","method":"tools/call"' '"dir":"recv","method":"tools/call"' '"kind":"closed"'; do
				grep -m1 "$pat" "$rec" | sed 's/^{"seq":[0-9]*,"t":"\([^"]*\)".*/\1/'
			done
		} | date -f - +%s%6N | awk -v t0="$t0" -v t1="$t1" '{printf "%.1f ", ($1 - t0) / 1e3} END {printf "%.1f\n", (t1 - t0) / 1e3}' >>"$work/phases"
	done
	local names=("session started" "first request sent" "server first answered" "tools/list answered"
		"tools/call sent" "tools/call answered" "session closed" "process exited")
	printf 'where mcpwitness call spends its time, %d runs with --record, median ms from launch\n' "$1"
	for c in "${!names[@]}"; do
		cut -d' ' -f$((c + 1)) "$work/phases" >"$work/phase"
		printf '  %-24s %7.1f\n' "${names[c]}" "$(median "$work/phase")"
	done
}
if [[ ${PHASES:-0} -gt 0 ]]; then
	echo
	phases "$PHASES"
fi

if [[ ${STRICT:-} == 1 ]] && awk -v r="$ratio" -v t="$target" 'BEGIN {exit !(r > t)}'; then
	exit 3
fi
