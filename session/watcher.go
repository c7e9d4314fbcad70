package session

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// watch arranges for the raw answer to request id to reach w, unless w
// already watches a request: a watcher takes the first its context sends.
func (t *tap) watch(id string, w *watcher) {
	w.mu.Lock()
	claimed := w.id != ""
	w.mu.Unlock()
	if claimed {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	w.id = id
	t.watched[id] = w
}

func (t *tap) unwatch(w *watcher) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if w.id != "" && t.watched[w.id] == w {
		delete(t.watched, w.id)
	}
}

// watcher receives the raw answer to the one request sent with its context.
type watcher struct {
	// list and items, set for a list request whose page is read from the
	// raw answer, name its method and the field of its items: the SDK is
	// then given an empty page.
	list   string
	items  string
	mu     sync.Mutex
	id     string
	result json.RawMessage
	rpcErr json.RawMessage
	got    bool
	cut    bool  // the answer nested too deep and was cut
	frame  int64 // the sequence number of the event that recorded the answer alone; 0 when none did
	// changes count the notifications that a list changed read before
	// the answer (see [tap.toolsChanged]).
	changes listChanges
}

type watchKey struct{}

// withWatcher returns a context whose first outgoing request is watched.
func withWatcher(ctx context.Context) (context.Context, *watcher) {
	w := &watcher{}
	return context.WithValue(ctx, watchKey{}, w), w
}

// withListWatcher is [withWatcher] for a request of list method whose page
// is read from the raw answer alone: the SDK gets an empty page in its
// place, with no items in the field items.
func withListWatcher(ctx context.Context, method, items string) (context.Context, *watcher) {
	w := &watcher{list: method, items: items}
	return context.WithValue(ctx, watchKey{}, w), w
}

func watcherFrom(ctx context.Context) *watcher {
	w, _ := ctx.Value(watchKey{}).(*watcher)
	return w
}

func (w *watcher) deliver(result, rpcErr json.RawMessage, cut bool, frame int64, changes listChanges) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.result, w.rpcErr, w.got, w.cut, w.frame, w.changes = result, rpcErr, true, cut, frame, changes
}

// changesBefore returns how many notifications that a list changed were
// read before the answer, and whether an answer came.
func (w *watcher) changesBefore() (listChanges, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.changes, w.got
}

// frameSeq returns the sequence number of the wire event that recorded the
// answer as a message of its own, whole (not cut); 0 when none did.
func (w *watcher) frameSeq() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.frame
}

// wasCut reports whether the answer was cut for nesting too deep.
func (w *watcher) wasCut() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.cut
}

// answer returns the raw answer, if one arrived.
func (w *watcher) answer() (id string, result, rpcErr json.RawMessage, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.id, w.result, w.rpcErr, w.got
}

// claim registers the watcher of ctx, if any, for the request being
// written (see [tap.watch]).
func (t *tap) claim(ctx context.Context, msg jsonrpc.Message) {
	w := watcherFrom(ctx)
	if w == nil {
		return
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.IsCall() {
		return
	}
	id, err := json.Marshal(req.ID.Raw())
	if err != nil {
		return
	}
	t.watch(string(id), w)
}
