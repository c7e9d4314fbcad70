#!/usr/bin/env bash
# everything.sh runs mcpwitness headless against the official reference
# server @modelcontextprotocol/server-everything (a server nobody here
# wrote), one flow of tasks and of the server's own requests at a time,
# with the flags a user would type, and checks each exit code and what the
# output says. It prints a table (flow, expected, got) and exits non-zero
# when a flow did not go as expected. It is not part of go test or .ci/run.
#
#   scripts/everything.sh                  every flow
#   scripts/everything.sh task elicit      the flows whose name holds a word
#
# The server's version is pinned (EVERYTHING_VERSION); it is installed
# with npm into $EVERYTHING_DIR (default: a temporary directory). Needs
# node and npm; its HTTP flows need python3 to find a free port.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
version=${EVERYTHING_VERSION:-2026.8.31}
work=${EVERYTHING_DIR:-$(mktemp -d)}
mkdir -p "$work"
cd "$work"

pkg=node_modules/@modelcontextprotocol/server-everything
if [ "$(node -p "require('./$pkg/package.json').version" 2>/dev/null || true)" != "$version" ]; then
	[ -f package.json ] || npm init -y >/dev/null
	npm install --no-audit --no-fund "@modelcontextprotocol/server-everything@$version" >npm-install.log 2>&1 || {
		echo "everything: npm install failed; see $work/npm-install.log" >&2
		exit 1
	}
fi
server=(node "$work/$pkg/dist/index.js")

echo "building mcpwitness into $work" >&2
(cd "$root" && go build -o "$work/mcpwitness" .)
mw=("$work/mcpwitness")

# Answers a user would keep in files.
printf '%s\n' '{"role":"assistant","model":"by-hand","content":{"type":"text","text":"a reply from a file"},"stopReason":"endTurn"}' >reply.json
printf '%s\n' '{"name":"Ada Lovelace","check":true,"integer":7}' >form.json
printf '%s\n' '{"name":"Ada","integer":1000}' >form-bad.json
printf '%s\n' '{"interpretation":"historical"}' >clarify.json

filter=("$@")
failed=0
rows=()

# flow NAME EXPECTED_EXIT 'TEXT|TEXT' -- ARGS...: runs mcpwitness ARGS
# against the server over stdio; the flow passes when it exits
# EXPECTED_EXIT and its output (stdout and stderr) holds every TEXT.
flow() {
	local name=$1 want=$2 says=$3
	shift 4
	if [ ${#filter[@]} -gt 0 ]; then
		local hit=
		for f in "${filter[@]}"; do [[ $name == *"$f"* ]] && hit=1; done
		[ -n "$hit" ] || return 0
	fi
	local out="$work/out/$name.txt" code=0
	mkdir -p "$work/out"
	if [ -n "${HTTP_URL:-}" ]; then
		"${mw[@]}" "$@" --url "$HTTP_URL" >"$out" 2>&1 || code=$?
	else
		"${mw[@]}" "$@" -- "${server[@]}" stdio >"$out" 2>&1 || code=$?
	fi
	local got="exit $code" missing=
	IFS='|' read -ra texts <<<"$says"
	for s in "${texts[@]}"; do
		grep -qF -- "$s" "$out" || missing+="${missing:+, }no \"$s\""
	done
	local verdict=ok
	if [ "$code" != "$want" ] || [ -n "$missing" ]; then
		verdict=FAIL failed=1
		got+="${missing:+; $missing}"
	fi
	rows+=("$(printf '%-36s | %-7s | %-28s | %s' "$name" "$verdict" "$got" "exit $want; ${says//|/, }")")
}

# Tasks (server-everything speaks protocol 2025-11-25: tools/call with the
# task parameter, tasks/get, tasks/result, tasks/cancel, tasks/list).
flow tools-list 0 'simulate-research-query|required' -- tools
flow task-refused-as-plain-call 3 'requires task-based execution|--task runs it as a task' -- call simulate-research-query topic=mcp
flow task-completes 0 'working: Gathering sources|completed' -- call simulate-research-query topic=mcp --task
flow task-input-required-form-file 0 'input_required|asked: The research query|accept with|completed|(historical)' -- \
	call simulate-research-query topic=mcp ambiguous=true --task --elicit @clarify.json
flow task-input-required-decline 0 'input_required|elicitation/create ask-1: decline|User declined' -- \
	call simulate-research-query topic=mcp ambiguous=true --task --elicit decline
flow task-input-required-cancel 0 'input_required|elicitation/create ask-1: cancel|User cancelled' -- \
	call simulate-research-query topic=mcp ambiguous=true --task --elicit cancel
flow task-timeout-cancels 1 'cancelled' -- call simulate-research-query topic=mcp --task --timeout 1500ms
flow task-json-document 0 '"taskId"|"status": "completed"|"history"' -- call simulate-research-query topic=mcp --task --json
flow tasks-list 0 'tasks/list' -- tasks --ndjson

# Sampling: --sampling-reply declares sampling and answers it.
flow sampling-reply-text 0 'asked|answered with an assistant text message|a typed reply' -- \
	call trigger-sampling-request prompt=hello --sampling-reply 'a typed reply'
flow sampling-reply-file 0 'answered with reply.json|a reply from a file|by-hand' -- \
	call trigger-sampling-request prompt=hello --sampling-reply @reply.json
flow sampling-decline 4 'declined: --sampling-decline|User rejected sampling request' -- \
	call trigger-sampling-request prompt=hello --sampling-decline
flow sampling-not-declared 4 'Tool trigger-sampling-request not found|was not listed' -- \
	call trigger-sampling-request prompt=hello

# Elicitation, form mode.
flow elicit-accept-defaults 0 'asked: Please provide inputs|accept with the defaults of|"integer": 42' -- \
	call trigger-elicitation-request --elicit accept-defaults
flow elicit-accept-file 0 'accept with form.json|Ada Lovelace' -- call trigger-elicitation-request --elicit @form.json
flow elicit-file-not-matching-declines 0 'does not match the requested schema: /integer|User declined' -- \
	call trigger-elicitation-request --elicit @form-bad.json
flow elicit-decline 0 'elicitation/create ask-1: decline|User declined' -- call trigger-elicitation-request --elicit decline
flow elicit-cancel 0 'elicitation/create ask-1: cancel|User cancelled' -- call trigger-elicitation-request --elicit cancel

# Elicitation, URL mode: the URL shown (controls visible), never opened.
flow elicit-url-accept 0 'URL to open: https://example.com/consent?step=1|accept (URL mode)|completed the URL elicitation' -- \
	call trigger-url-elicitation url='https://example.com/consent?step=1' --elicit accept-defaults
flow elicit-url-decline 0 'URL to open: https://example.com/consent|decline (URL mode)' -- \
	call trigger-url-elicitation url='https://example.com/consent' --elicit decline
flow elicit-url-cancel 0 'URL to open: https://example.com/consent|cancel (URL mode)' -- \
	call trigger-url-elicitation url='https://example.com/consent' --elicit cancel

# Roots: --root answers roots/list.
flow roots 0 'roots/list: answered with 2 roots|file:///tmp|file:///var' -- call get-roots-list --root /tmp --root /var

# The same tasks over Streamable HTTP: the server on 127.0.0.1, a free port.
if command -v python3 >/dev/null; then
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	PORT=$port "${server[@]}" streamableHttp >"$work/http-server.log" 2>&1 &
	http_pid=$!
	trap 'kill $http_pid 2>/dev/null || true' EXIT
	for _ in $(seq 50); do
		grep -q "listening on port" "$work/http-server.log" 2>/dev/null && break
		sleep 0.1
	done
	HTTP_URL="http://127.0.0.1:$port/mcp"
	flow http-task-completes 0 'completed' -- call simulate-research-query topic=mcp --task
	flow http-task-input-required 0 'input_required|accept with clarify.json|(historical)' -- \
		call simulate-research-query topic=mcp ambiguous=true --task --elicit @clarify.json
	flow http-elicit-accept-defaults 0 'accept with the defaults of' -- call trigger-elicitation-request --elicit accept-defaults
	unset HTTP_URL
fi

printf '%-36s | %-7s | %-28s | %s\n' FLOW VERDICT GOT EXPECTED
printf '%s\n' "${rows[@]}"
echo "server-everything $version · outputs: $work/out" >&2
exit $failed
