package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/checks"
	"mcpwitness/jsonscan"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// tap turns raw frames into wire events and hands the raw answer of a
// watched request to whoever sent it. It is the source of truth: list items
// and call results are read from the bytes it saw, not from the SDK's
// structs.
type tap struct {
	log *record.Log
	// progress maps a progress token we sent to the call it belongs to.
	progress func(token string) (int64, bool)

	mu      sync.Mutex
	watched map[string]*watcher
	sent    map[string]sentCall // our requests awaiting an answer, by id
	// sentOrder is sent in the order the requests went (answered ones
	// are dropped lazily): when more than maxUnanswered await an answer,
	// the oldest is forgotten. sentN numbers them.
	sentOrder []sentRef
	sentN     int64
	recvReq   map[string]string // the server's requests we have not answered, id → method
	// own are the requests the session sends itself (the task methods,
	// which the SDK has none of), by id: each answer closes its channel
	// and never reaches the SDK. conn is the tapped connection they go out
	// on (stdio and in-memory; HTTP posts them).
	own  map[string]chan struct{}
	conn mcp.Connection
	// writes are the methods a request of which is awaited on the wire:
	// its write closes the channel.
	writes map[string]chan struct{}
	// init is the raw result of the initialize answer.
	init json.RawMessage
	// toolsChanged and promptsChanged count the notifications that the
	// tool list and the prompt list changed read so far. Each answer a
	// watcher takes carries the counts as they were when the answer was
	// read (see [listChanges]), so that a call or a prompt's get can tell
	// whether the server said its list changed after the listing it was
	// checked against and before its answer, in the order the server sent
	// them.
	toolsChanged, promptsChanged atomic.Int64
	// resourcesChanged counts notifications/resources/list_changed, which
	// covers the resources and the resource templates: a settled walk
	// ([Session.WalkSettled]) looks back on it.
	resourcesChanged atomic.Int64
	// noise is what the server sent that is not JSON-RPC (see
	// [Session.NotJSONRPC]); guarded by mu.
	noise Noise
}

// listChanges are the counts of [tap.toolsChanged] and
// [tap.promptsChanged] at one moment.
type listChanges struct{ tools, prompts int64 }

// changes are the tap's counts of list changes now.
func (t *tap) changes() listChanges {
	return listChanges{tools: t.toolsChanged.Load(), prompts: t.promptsChanged.Load()}
}

// of is the count of the list method's own changes: 0 for a list no
// check looks back on.
func (c listChanges) of(method string) int64 {
	switch method {
	case paging.Tools().Name:
		return c.tools
	case paging.Prompts().Name:
		return c.prompts
	}
	return 0
}

// maxUnanswered bounds the requests the tap remembers awaiting an answer.
// A request that timed out or was cancelled stays, so that a late answer
// is recorded as its answer (with its latency) rather than as a stray;
// past this many, the oldest is forgotten, and an answer to it is a stray.
const maxUnanswered = 4096

type sentCall struct {
	method string
	at     time.Time
	n      int64 // its place in sentOrder
}

// sentRef is one request in [tap.sentOrder].
type sentRef struct {
	id string
	n  int64
}

func newTap(log *record.Log) *tap {
	return &tap{log: log, watched: map[string]*watcher{}, sent: map[string]sentCall{}, recvReq: map[string]string{}, own: map[string]chan struct{}{}, writes: map[string]chan struct{}{}}
}

// maxFrameDepth bounds how deeply a frame from the server may nest when it
// is passed on: deeper parts are cut (see [checks.Cut]) before the SDK, the
// walk or the checks see it. encoding/json refuses frames past 10,000
// levels, and deep values cost memory everywhere after.
const maxFrameDepth = 256

// jsonMaxDepth is the nesting encoding/json refuses past; a frame deeper than
// it is recorded as text, since it cannot be written as a JSON value.
const jsonMaxDepth = 10000

// frame records one raw frame seen going in direction dir and reports
// whether it may be passed on. A frame from the server that is too deep is
// passed on cut: use [tap.receive] to get the bytes to pass on.
func (t *tap) frame(dir string, raw []byte) bool {
	_, ok := t.pass(dir, raw)
	return ok
}

// receive records one frame from the server and returns what the SDK may be
// given: the frame itself, a copy with what nests deeper than maxFrameDepth
// cut, or nothing (ok false) for a frame that is not JSON or an answer to no
// request in flight.
func (t *tap) receive(raw []byte) (fwd []byte, ok bool) { return t.pass(record.Recv, raw) }

func (t *tap) pass(dir string, raw []byte) ([]byte, bool) {
	now := time.Now()
	view, cuts, depth := raw, 0, 0
	if dir == record.Recv {
		if depth = checks.Depth(raw); depth > maxFrameDepth {
			if cut, n, ok := checks.Cut(raw, maxFrameDepth); ok {
				view, cuts = cut, n
			}
		}
	}
	if !jsonscan.Valid(view) {
		if dir == record.Recv {
			t.noted(raw)
		}
		t.log.Append(record.Event{T: now, Kind: record.KindWire, Dir: dir, Text: string(raw), Size: len(raw), Level: "invalid"})
		return nil, false
	}
	// The frame is copied once, for the record: the caller's buffer is
	// reused for the next one. It is then read once, in place: the
	// envelope's members (a list page's result) are slices of that copy,
	// which the record, the watcher and the walk share.
	raw = append([]byte(nil), raw...)
	parse := view
	if cuts == 0 {
		parse = raw
	}
	var members []json.RawMessage
	var one message
	var parsed bool
	trimmed := bytes.TrimSpace(parse)
	batch := len(trimmed) > 0 && trimmed[0] == '['
	if batch {
		members, parsed = readBatch(parse)
	} else {
		one = readMessage(parse)
		parsed = one.isObject
	}
	rec := record.Event{T: now, Kind: record.KindWire, Dir: dir, Frame: raw, Size: len(raw)}
	if cuts > 0 {
		rec.Level = levelDeep
		if depth > jsonMaxDepth {
			rec.Frame, rec.Text = nil, string(raw)
		}
		t.log.Append(record.Event{T: now, Kind: record.KindError, Dir: dir, Size: len(raw), Text: fmt.Sprintf(
			"a frame from the server nests %d levels deep; %s deeper than %d levels cut before the SDK and the checks saw it (the record keeps it whole)",
			depth, plural(cuts, "value"), maxFrameDepth)})
	}
	if !batch {
		ok, fwd := t.route(dir, one, now, &rec, cuts > 0)
		if fwd == nil {
			fwd = view
		}
		return fwd, ok
	}
	// A batch: record it whole, then route each member.
	rec.Method = "(batch)"
	t.log.Append(rec)
	if !parsed {
		return view, true
	}
	return t.routeBatch(dir, view, members, now, cuts > 0)
}

// routeBatch routes each member of the batch view and returns what may be
// passed on: the batch, the batch without its stray answers, or nothing
// when every member was one.
func (t *tap) routeBatch(dir string, view []byte, members []json.RawMessage, now time.Time, cut bool) ([]byte, bool) {
	var kept []json.RawMessage
	for _, m := range members {
		if ok, _ := t.route(dir, readMessage(m), now, nil, cut); ok {
			kept = append(kept, m)
		}
	}
	switch {
	case len(kept) == len(members):
		return view, true
	case len(kept) == 0:
		return nil, false
	}
	// Pass on the batch without its stray answers.
	b, err := json.Marshal(kept)
	return b, err == nil
}

// route books one message and records it as rec (nil for a member of a
// batch, recorded whole). It reports whether the message may be passed on:
// an answer from the server that matches no request in flight is recorded,
// said to be ignored, and kept from the SDK, which would take it for
// another answer or drop the connection over it. When the message is the
// answer to a list request whose watcher reads the page itself (see
// [withListWatcher]), and it is not part of a batch, fwd is what the SDK
// gets instead: an empty page of the same id, so that the SDK settles the
// request (its id, cancellation and timeout stay its own) without decoding
// a page nobody reads from it.
func (t *tap) route(dir string, msg message, now time.Time, rec *record.Event, cut bool) (ok bool, fwd []byte) {
	env := msg.env
	id := canonicalID(env.ID)
	method, latency, w, stray := t.book(dir, env.Method, id, now)
	var frame int64 // the sequence number of the frame's event, when it holds this message alone
	if rec != nil {
		frame = t.recordAlone(rec, method, id, latency, cut)
	}
	if stray {
		if dir == record.Recv && !msg.isObject {
			t.noted(msg.view)
		}
		t.log.Append(record.Event{T: now, Kind: record.KindError, Dir: dir, ID: id, Size: len(msg.view), Text: strayText(env.ID, msg.isObject)})
		return false, nil
	}
	if w != nil {
		w.deliver(env.Result, env.Error, cut, frame, t.changes())
		if rec != nil && readsOwnPage(w, method, env) {
			fwd = emptyPage(env.ID, w.items)
		}
	}
	if dir == record.Recv && !t.take(method, id, env, now) {
		return false, nil
	}
	return true, fwd
}

// recordAlone records rec, a frame that holds one message alone, under the
// method and id the message was booked with (and an answer's latency). It
// returns the sequence number of its event, which a watcher keeps to point
// at the answer; 0 when the frame was cut or is recorded as text.
func (t *tap) recordAlone(rec *record.Event, method, id string, latency time.Duration, cut bool) int64 {
	rec.Method, rec.ID = method, id
	if latency > 0 {
		rec.LatencyMs = ms(latency)
	}
	if stamped := t.log.Append(*rec); !cut && stamped.Frame != nil {
		return stamped.Seq
	}
	return 0
}

// readsOwnPage reports whether watcher w reads the page of the answer env
// (to a request of method) from the raw answer, so that the SDK is to be
// given an empty page: only a well-formed answer to w's list; anything
// else reaches the SDK as it came, for the SDK to judge.
func readsOwnPage(w *watcher, method string, env envelope) bool {
	return w.items != "" && method == w.list && env.JSONRPC == "2.0" && len(env.Result) > 0 && len(env.Error) == 0
}

// take acts on a message from the server (booked under method and id)
// that the tap itself needs: the result of initialize (or server/discover)
// is kept, the answer to one of the session's own requests settles it, and
// a notification becomes an event of its own. It reports whether the
// message goes on to the SDK: an answer to the session's own request does
// not.
func (t *tap) take(method, id string, env envelope, now time.Time) bool {
	if (method == "initialize" || method == "server/discover") && len(env.Result) > 0 {
		t.keepInit(env.Result)
	}
	if env.Method == "" && t.signal(t.own, id) {
		return false
	}
	if env.Method != "" && id == "" {
		switch env.Method {
		case record.MethodToolsChanged:
			t.toolsChanged.Add(1)
		case record.MethodPromptsChanged:
			t.promptsChanged.Add(1)
		case methodResourcesChanged:
			t.resourcesChanged.Add(1)
		}
		t.notification(env.Method, env.Params, now)
		if sdkIgnores(env.Method) {
			return false
		}
	}
	return true
}

// sdkIgnores reports whether the SDK does nothing with a notification of
// method from the server, for a client with no handler of it (the session
// sets none): a log message or a progress notification. The tap's event is
// all of it, and it is kept from the SDK, whose decoding of it cost more
// than everything else a notification costs (a large allocation each): a
// server logging in a flood was read at a third of the speed.
func sdkIgnores(method string) bool {
	return method == "notifications/message" || method == "notifications/progress"
}

// book keeps the tap's record of the requests in flight up to date with
// one message going dir (its method and canonical id; a message with no
// method is an answer). It returns the method to record the message under
// (an answer's is that of its request), how long an answer took, the
// watcher waiting for it, and whether it is a stray: an answer from the
// server that matches no request in flight.
func (t *tap) book(dir, method, id string, now time.Time) (recorded string, latency time.Duration, w *watcher, stray bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case method != "" && id != "" && dir == record.Send:
		t.remember(id, sentCall{method: method, at: now})
	case method != "" && id != "" && dir == record.Recv:
		t.recvReq[id] = method
	case method == "" && dir == record.Recv:
		sc, ok := t.sent[id]
		if id == "" || !ok {
			return method, 0, nil, true
		}
		delete(t.sent, id)
		w = t.watched[id]
		delete(t.watched, id)
		return sc.method, now.Sub(sc.at), w, false
	case method == "" && id != "" && dir == record.Send:
		method = t.recvReq[id]
		delete(t.recvReq, id)
	}
	return method, 0, nil, false
}

// remember books the request id sent, forgetting the oldest unanswered
// one past maxUnanswered. t.mu is held.
func (t *tap) remember(id string, sc sentCall) {
	t.sentN++
	sc.n = t.sentN
	t.sent[id] = sc
	t.sentOrder = append(t.sentOrder, sentRef{id: id, n: sc.n})
	for len(t.sent) > maxUnanswered {
		oldest := t.sentOrder[0]
		t.sentOrder = t.sentOrder[1:]
		if t.sent[oldest.id].n == oldest.n {
			delete(t.sent, oldest.id)
		}
	}
	if len(t.sentOrder) > 2*len(t.sent)+maxUnanswered {
		// Mostly answered: keep the requests still awaited, in order.
		kept := make([]sentRef, 0, len(t.sent))
		for _, r := range t.sentOrder {
			if sc, ok := t.sent[r.id]; ok && sc.n == r.n {
				kept = append(kept, r)
			}
		}
		t.sentOrder = kept
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
