package main

const helpMain = `mcpwitness — inspect an MCP server: every list page, every generation,
every call checked the way clients check it, all recorded as evidence.

Usage:
  mcpwitness [flags]                    the embedded demo server
  mcpwitness [flags] -- CMD [ARGS...]   a stdio server (its stderr is captured)
  mcpwitness [flags] --url URL          a Streamable HTTP server (--sse for legacy SSE)
  mcpwitness [flags] --config FILE [--server A,B]  servers from an mcpServers file
  mcpwitness tools [flags] [server]     walk every page of tools/list and print them
  mcpwitness call TOOL [k=v ...] [flags] [server]
                                        call a tool and print its verdicts
  mcpwitness check [flags] [server]     lint: every list, cursor health, schemas,
                                        task eligibility; exit 3 on findings
  mcpwitness resources [flags] [server] walk resources/list and resources/templates/list
  mcpwitness read URI [--follow] [flags] [server]
                                        read a resource and check its contents
  mcpwitness prompts [flags] [server]   walk every page of prompts/list
  mcpwitness tasks [flags] [server]     walk every page of tasks/list
  mcpwitness prompt NAME [k=v ...] [flags] [server]
                                        get a prompt and check its arguments and messages
  mcpwitness complete (--prompt NAME | --template URI) ARG=PARTIAL [flags] [server]
                                        completion/complete for one argument
  mcpwitness ping [--count N] [flags] [server]   round trips of ping
  mcpwitness report FILE                a Markdown report of a session file
  mcpwitness diff BEFORE AFTER          what changed between two session files
  mcpwitness open FILE                  replay a session file in the terminal UI
  mcpwitness demo-server [--http ADDR [--auth]]  run the embedded demo server
  mcpwitness completion bash|zsh|fish|powershell  a shell completion script
  mcpwitness help COMMAND               more on one command

Exit codes:
  0    all good
  1    connection or protocol error
  2    usage error
  3    a check failed (incomplete walk, refusal, failed or unchecked verdict)
  4    the tool answered isError: true and every check passed
  130  interrupted (Ctrl-C; 143 for SIGTERM, 129 for SIGHUP)
With --json, every command prints exactly one document, with "kind" and
"schemaVersion" on top; a command that fails prints
{"kind": "error", "schemaVersion": 1, "command": …, "error": {"code", "message",
"exitCode"}}. Each command's document is described by a JSON Schema in
docs/schemas/.

Secrets never reach a record, --json, --ndjson, JUnit, a report, an error
or the screen, even echoed by a server: values of headers, -e variables and
query parameters named *token*, *secret*, *key*, *password*, *auth*,
*session*, *credential*, *cookie* (and Authorization, Cookie), values that
look like credentials (Bearer/Basic, ghp_, sk-, xoxb-, AKIA…, JWTs, URL
userinfo), --secret NAME, ${env:NAME} values of a config, and OAuth tokens
and vended headers. Other values are kept as given. A secret appears as
[REDACTED:NAME:sha256=…], a digest keyed with a per-user key (see
--digest-key), so a shared file cannot be used to test guesses of a
secret, while one secret matches across this user's sessions. Each server
has a config hash (SHA-256 of its transport's comparable parts, secret
values as keyed digests), in the header, --json, records and reports;
diff names the parts that differ. What a server sends is shown safely: control
characters and escape sequences visibly (␛[2J, \r, \x9b), bidi, zero-width,
tag and other invisible characters as \u202e and the like; --json and --ndjson are
strict UTF-8 JSON. Session files keep the raw bytes.
`

const helpTools = `mcpwitness tools — walk every page of tools/list

Usage:
  mcpwitness tools [--json|--ndjson] [--max-pages N] [--record FILE] [server]

Follows nextCursor until a page has none. A walk stops at --max-pages
requests (incomplete: page-limit) or when a page names a cursor already
sent (incomplete: cursor-repeated); what was read is still printed. Each
page shows its item count, time, ttlMs and generation; each tool whether
a typical client would hold its checks for it (held) or not (own). When
the server says its list changed after the walk started, the output says
what it shows may be out of date.

Examples:
  mcpwitness tools
  mcpwitness tools --json -- node server.js
  mcpwitness tools --url http://127.0.0.1:8080/mcp -H "Authorization: Bearer $TOKEN"

Exit: 0 complete · 1 could not connect or list · 3 incomplete walk or cursor errors.
`

const helpCall = `mcpwitness call — call one tool and check it as a client would

Usage:
  mcpwitness call TOOL [NAME=VALUE ...] [--args JSON] [--force] [--walk-all]
                  [--task [--task-ttl D]] [--json] [server]

Lists the tools first, so the checks use the definition a client would hold,
up to the page that lists the tool (the output says which; --walk-all reads
every page):
  task-support        a tool with execution.taskSupport "required" is refused
                      before anything is sent (--force sends it anyway)
  input-schema        arguments checked against inputSchema before sending
  structured-content  an outputSchema demands structuredContent (unless isError)
  output-schema       structuredContent checked against outputSchema, with
                      every failing instance path
A tool a complete listing does not have is not sent: exit 2 (not-found),
--force sends it anyway, as a deliberate probe. A tool not found before the
walk stopped (--max-pages, a cursor loop) exits 3 (incomplete). When
the server says its tool list changed after that listing and before the
answer, the output says the definition checked may be stale.

--task runs the tool as a task, for a tool whose taskSupport is "required"
or "optional"; any other is refused (--force sends it anyway). Tasks follow
the negotiated protocol:
  2026-07-28   the io.modelcontextprotocol/tasks extension: the server
               decides, answering any call (--task or plain) with a task;
               tasks/get is polled and the result read from its answer
  2025-11-25   tools/call goes out with the task parameter (--task-ttl D
               asks for a ttl); tasks/get is polled at the server's
               pollInterval, on completion tasks/result is checked
Each status is printed as it comes and the result gets a plain answer's
checks. --timeout (the whole task) or Ctrl-C sends tasks/cancel. The
requests a task waits on are answered by --elicit and --sampling-reply.

NAME=VALUE values follow the input schema's types: a=2 is a number when the
schema says number, flag=true a boolean, tags='["x"]' JSON; a value the type
cannot take is sent as a string and refused by the input check (exit 3, as
the same value in --args is). --args takes the arguments as one JSON
object, --args @FILE from FILE, --args - from stdin.

Examples:
  mcpwitness call add a=2 b=3
  mcpwitness call weather --args '{"city":"Oslo"}' --json --record session.jsonl
  mcpwitness call render_video --force -- node server.js
  mcpwitness call render_video storyboard='title card' --task --task-ttl 10m

Exit: 0 all checks passed · 1 connection or protocol error · 3 refused, failed
or unchecked verdict · 4 the tool answered isError: true, checks passed.
`

const helpDemo = `mcpwitness demo-server — the embedded demo server

Usage:
  mcpwitness demo-server                 serve over stdin/stdout
  mcpwitness demo-server --http ADDR     serve Streamable HTTP on ADDR
                                         (port 0 picks one; the URL is printed)
  mcpwitness demo-server --http ADDR --auth   the same behind OAuth, with a small
                                         authorization server on ADDR (dynamic
                                         registration, or client mcpwitness-demo
                                         with secret demo-secret)

It has 53 tools, in 6 pages of 10: valid, invalid and missing structured
output, an isError tool, a task-required tool, a slow tool with progress,
a tool that adds and removes tools, resources, prompts and logging.
  --page-size N   items per list page (default 10)
  --filler N      add N generated tools
  --ttl-ms N      advertise ttlMs N on list pages
`

const helpCheck = `mcpwitness check — lint a server without calling anything

Usage:
  mcpwitness check [--json] [--max-pages N] [--junit FILE] [server]
  mcpwitness check --config FILE [--server A,B] [--json] [--junit FILE]

Walks every list the server offers (tools, and prompts, resources and
resource templates when it declares them) and reports:
  walk                 a list that could not be read to its end
  cursor-repeated, empty-page-with-cursor, duplicate-item, page-limit
  tool-name            names outside the 1–128 characters [A-Za-z0-9_.-]
  input-schema         missing, not an object, or cannot be checked
  output-schema        not an object, or cannot be checked (does not
                       compile, or holds a $ref that does not resolve)
  task-support         tools that clients refuse to call plainly (a note)
  unsafe-text          control characters, escape sequences, bidi controls,
                       zero-width characters or invalid UTF-8 in a name (an
                       error), a title, a description, schema text or the
                       server's version and instructions (warnings)

With --config and no --server (or --server A,B), every server of the file
is checked, four at once: one summary line per server (its config hash,
lists, counts, and its errors and warnings under it); entries with the same
config hash are checked once, named together. A broken entry (a
${env:NAME} that is not set, a value of the wrong type) is a result of its
own and the others are still checked. --json prints one document for all
servers. --junit FILE writes JUnit XML for CI: one testsuite per server,
one testcase per kind of check (walks, tool names, schemas, task
eligibility, text safety), a server that could not be reached as an error
case (connect, or config for a broken entry); --junit - writes it to stdout.

Examples:
  mcpwitness check -- node server.js
  mcpwitness check --json --url http://127.0.0.1:8080/mcp
  mcpwitness check --config .cursor/mcp.json --junit mcp-check.xml

Exit: 0 no errors or warnings · 1 could not connect or list (any server:
it wins over findings, since what it would have found is unknown) · 3
findings.
`

const helpReport = `mcpwitness report — a Markdown report of a session file, for an issue tracker

Usage:
  mcpwitness report FILE > report.md

Reads a session file written by --record (or exported from the terminal UI)
and writes Markdown to stdout: the target (secrets redacted), server and
protocol, a table of walks (pages, items, generations, incomplete reasons),
findings, a table of calls with each check's verdict and the failing
instance paths, and the request and response frames of every failed or
refused call in collapsed blocks. No server is needed.

A damaged file (cut off by a crash, a line that is not an event) is
reported as far as it can be read; what was skipped is said on stderr and
at the top of the report. A credential the file still holds (URL userinfo,
a Bearer or Basic token) is redacted as the record redacts it, its digest
keyed with the per-user key (--digest-key FILE names another).

Example:
  mcpwitness call forecast_broken city=Oslo --record run.jsonl
  mcpwitness report run.jsonl > report.md

Exit: 0 written · 1 the file cannot be read · 2 usage error.
`

const helpDiff = `mcpwitness diff — what changed between two session files

Usage:
  mcpwitness diff BEFORE AFTER [--json]

Compares the last complete tools/list walk of each file: tools added,
removed and changed (description, input schema, output schema, execution,
annotations, title, other), tools whose order changed or that arrived on
another page, and the verdicts of the tools both files called (the last
call of each). --json writes one document, described in
docs/session-format.md and docs/schemas/diff.json.

Example:
  mcpwitness tools --record before.jsonl -- node server.js
  # change the server
  mcpwitness tools --record after.jsonl -- node server.js
  mcpwitness diff before.jsonl after.jsonl

Exit: 0 equal · 3 different · 1 a file cannot be read or has no complete
tools walk · 2 usage error.
`

const helpOpen = `mcpwitness open — replay a session file in the terminal UI, with no server

Usage:
  mcpwitness open FILE [--theme NAME]

Shows a session file written by --record (or exported from the terminal UI
with e) in the same panes as a live session, read-only: the walks with
their pages and generations, every call with its verdicts, the wire and the
events. The header says it is a replay, of which file, recorded when.
Walking, calling and exporting need a live server and are not offered.

It opens at the end of the session. The scrubber shows the session as it
was after any of its events: which pages had arrived, which list requests
were out (gen N · out K), which calls were in flight.
  , .  (← →)               one event back, forward
  < >  (shift+← shift+→)   the previous, next moment: a walk starting or
                           ending, a list request, a page, a call starting
                           or ending, a list change
  { }                      the start, the end of the session
The status line says where: event 123/4,567 · 14:05:01.482 · +2.3 s.

A damaged file (cut off by a crash, lines that are not events) opens as far
as it can be read; the status line and the events pane say what was left
out. The file is indexed, not loaded: a file of hundreds of MB opens with
memory bounded by what the panes show.

Example:
  mcpwitness --record run.jsonl -- node server.js
  mcpwitness open run.jsonl

Exit: 0 quit with q · 1 the file cannot be opened · 2 usage error.
`

const helpResources = `mcpwitness resources — walk resources/list and resources/templates/list

Usage:
  mcpwitness resources [--json|--ndjson] [--max-pages N] [--log-level LEVEL] [server]

Both lists are walked as tools are: every page followed up to --max-pages,
cursor loops stopped, each item with the page and generation it came in.
--json: {"kind", "schemaVersion", "server", "walks": {by method},
"resources": [...],
"templates": [...], "findings": [...]}; each item has its fields, page,
generation, held and definition (as the server sent it).

Examples:
  mcpwitness resources
  mcpwitness resources --json -- npx -y @modelcontextprotocol/server-everything

Exit: 0 complete · 1 could not connect or list · 3 incomplete walk or cursor errors.
`

const helpRead = `mcpwitness read — read a resource and check its contents

Usage:
  mcpwitness read URI [--json|--ndjson] [--follow [--count N]] [server]

Sends resources/read and checks the answer: each item of contents has a
uri and exactly one of text or blob, a blob is valid base64, and the uri
asked for is among the items. Text is printed (JSON indented), a blob as
its type and size. --follow subscribes (resources/subscribe) and reads the
resource again on each notifications/resources/updated until Ctrl-C, or
until --count updates came; with --ndjson every event is printed as it
happens.
--json: {"kind", "schemaVersion", "server", "uri", "contents": [...],
"verdicts": [...], "durationMs"}.

Examples:
  mcpwitness read demo://readme
  mcpwitness read demo://clock --follow --count 3

Exit: 0 every check passed · 1 the read failed · 3 a verdict did not pass.
`

const helpPrompts = `mcpwitness prompts — walk every page of prompts/list

Usage:
  mcpwitness prompts [--json|--ndjson] [--max-pages N] [server]

Walked as tools are. Each prompt is shown with its arguments, the required
ones marked *.
--json: {"kind", "schemaVersion", "server", "walk", "prompts": [...],
"findings": [...]}.

Exit: 0 complete · 1 could not connect or list · 3 incomplete walk or cursor errors.
`

const helpPrompt = `mcpwitness prompt — get a prompt and check it

Usage:
  mcpwitness prompt NAME [k=v ...|--args JSON] [--force] [--json] [server]

The prompts are walked first, for the prompt's arguments: a required
argument that is missing refuses the request before it is sent (nothing
reaches the server); --force sends it anyway. The answer's messages are
checked: each has the role "user" or "assistant" and a content block of a
known type (text, image, audio, resource, resource_link) with its fields.
--json: {"kind", "schemaVersion", "server", "prompt", "messages": [...],
"verdicts": [...], "durationMs"}.

Examples:
  mcpwitness prompt code_review code='x := 1' language=Go
  mcpwitness prompt summarize --args '{"text":"a long text"}'

Exit: 0 every check passed · 1 the request failed · 3 refused or a verdict did not pass.
`

const helpComplete = `mcpwitness complete — completion/complete for one argument

Usage:
  mcpwitness complete --prompt NAME ARG=PARTIAL [k=v ...] [--json] [server]
  mcpwitness complete --template URI ARG=PARTIAL [k=v ...] [--json] [server]

Asks the server to complete the argument ARG of a prompt, or the variable
ARG of a resource template (URI is its uriTemplate), whose value so far is
PARTIAL (may be empty). Further k=v pairs are the arguments already chosen
(context). The answer is checked: at most 100 values, and total and
hasMore consistent with them.
--json: {"kind", "schemaVersion", "server", "values": [...], "total",
"hasMore", "verdicts": [...], "durationMs"}.

Examples:
  mcpwitness complete --prompt code_review language=g
  mcpwitness complete --template 'demo://cities/{country}/{city}' city= country=japan

Exit: 0 every check passed · 1 the request failed · 3 a verdict did not pass.
`

const helpPing = `mcpwitness ping — round trips of ping

Usage:
  mcpwitness ping [--count N] [--json] [server]

Sends ping N times (default 1), one after another, and prints each round
trip. --json: {"kind", "schemaVersion", "server", "durationsMs": [...]}.

Exit: 0 every ping answered · 1 one failed.
`

const helpTasks = `mcpwitness tasks — walk every page of tasks/list

Usage:
  mcpwitness tasks [--json|--ndjson] [--max-pages N] [server]

Walks tasks/list as tools walks tools/list: bounded, page by page, with
generations and cursor findings. Each task with its status, ttl, age, the
page that listed it and its status message. tasks/list is protocol
2025-11-25's: on 2026-07-28 (the default), whose tasks extension has no
tasks/list, tasks sends nothing and exits 2; give --protocol 2025-11-25.

Example:
  mcpwitness tasks --protocol 2025-11-25 -- mcpwitness demo-server

--json: {"kind", "schemaVersion", "server", "walk", "tasks": [...],
"findings": [...]}.
Exit codes: 0 complete, or a server that does not declare tasks (nothing is
asked), 1 the walk failed, 2 a 2026-07-28 session, 3 incomplete or cursor
errors.
`

const helpCompletion = `mcpwitness completion — a shell completion script

Usage:
  mcpwitness completion bash|zsh|fish|powershell

Writes the script that completes mcpwitness's commands and flags in that
shell to stdout.

Examples:
  source <(mcpwitness completion bash)
  mcpwitness completion zsh > "${fpath[1]}/_mcpwitness"
  mcpwitness completion fish > ~/.config/fish/completions/mcpwitness.fish
  mcpwitness completion powershell | Out-String | Invoke-Expression

Exit: 0 written · 2 usage error.
`
