package oauth

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// redirectListener is the loopback listener an OAuth authorization code
// flow's browser comes back to. Its port is chosen once, when the
// listener is made, and registered in the redirect URL; each flow listens
// on it again and closes it when the flow ends (redirect, failure or
// timeout). It takes one redirect per flow, and only one carrying the
// flow's state: any other request is answered 400 and changes nothing.
type redirectListener struct {
	addr string        // 127.0.0.1:PORT, the redirect URL's
	turn chan struct{} // held by the flow in progress: one at a time

	mu     sync.Mutex
	srv    *http.Server // nil while nothing listens
	ln     net.Listener // srv's, closed here too: Serve may not have taken it yet
	flow   *pendingFlow // nil between flows
	closed bool
}

// pendingFlow is a flow waiting for its redirect.
type pendingFlow struct {
	state    string
	answered bool          // its redirect came: no other is taken
	got      chan redirect // receives the one redirect (buffered)
}

type redirect struct {
	res *auth.AuthorizationResult
	err error
}

// listenRedirect listens on a free port of 127.0.0.1, which stays the
// redirect port of every flow; it serves no flow until [redirectListener.begin].
func listenRedirect() (*redirectListener, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("OAuth: opening the loopback redirect listener: %w", err)
	}
	l := &redirectListener{addr: ln.Addr().String(), turn: make(chan struct{}, 1)}
	l.serve(ln)
	return l, nil
}

// URL is the redirect URL: the registered one.
func (l *redirectListener) URL() string { return "http://" + l.addr + "/callback" }

// serve answers on ln; l.mu is held or l not yet shared.
func (l *redirectListener) serve(ln net.Listener) {
	srv := &http.Server{Handler: l, ReadHeaderTimeout: 10 * time.Second}
	l.srv, l.ln = srv, ln
	go func() { _ = srv.Serve(ln) }()
}

// begin starts a flow whose authorization URL carries state, once the
// flow before it has ended, listening again on the redirect port if the
// last flow closed it. Each begin that succeeds is followed by one
// [redirectListener.end].
func (l *redirectListener) begin(ctx context.Context, state string) (*pendingFlow, error) {
	if state == "" {
		return nil, errors.New("the authorization URL carries no state: a redirect could not be told from a stray request")
	}
	select {
	case l.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for the authorization in progress to end: %w", ctx.Err())
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	err := errors.New("the session is closed")
	if !l.closed && l.srv == nil {
		var lc net.ListenConfig
		var ln net.Listener
		if ln, err = lc.Listen(ctx, "tcp", l.addr); err != nil {
			err = fmt.Errorf("listening again on %s, the registered redirect port: %w; stop what holds the port, or reconnect", l.addr, err)
		} else {
			l.serve(ln)
		}
	}
	if l.closed || l.srv == nil {
		<-l.turn
		return nil, fmt.Errorf("OAuth: %w", err)
	}
	l.flow = &pendingFlow{state: state, got: make(chan redirect, 1)}
	return l.flow, nil
}

// wait is the redirect of flow f, or an error once ctx is done.
func (l *redirectListener) wait(ctx context.Context, f *pendingFlow) (redirect, error) {
	select {
	case r := <-f.got:
		return r, nil
	case <-ctx.Done():
		return redirect{}, fmt.Errorf("no redirect came back to %s: %w", l.addr, ctx.Err())
	}
}

// end ends the flow begun: the listener stops taking redirects and
// closes, once the answer to the browser is written.
func (l *redirectListener) end() {
	l.mu.Lock()
	l.flow = nil
	srv, ln := l.srv, l.ln
	l.srv, l.ln = nil, nil
	l.mu.Unlock()
	if srv != nil {
		_ = ln.Close() // at once, so that the next flow can listen again
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = srv.Shutdown(ctx)
		cancel()
		_ = srv.Close()
	}
	<-l.turn
}

// close stops the listener for good (the session closes).
func (l *redirectListener) close() {
	if l == nil {
		return
	}
	l.mu.Lock()
	l.closed = true
	srv, ln := l.srv, l.ln
	l.srv, l.ln = nil, nil
	l.mu.Unlock()
	if srv != nil {
		_ = ln.Close()
		_ = srv.Close()
	}
}

// ServeHTTP takes the redirect of the flow in progress: the first request
// to /callback whose state is the flow's. Anything else gets 400 and
// leaves the flow waiting.
func (l *redirectListener) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/callback" {
		http.NotFound(w, r)
		return
	}
	q := r.URL.Query()
	l.mu.Lock()
	f := l.flow
	why := ""
	switch {
	case f == nil:
		why = "mcpwitness is not waiting for an authorization now."
	case subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(f.state)) != 1:
		why = "This redirect's state is not the one of the authorization in progress: it is ignored."
	case f.answered:
		why = "This authorization was already answered."
	default:
		f.answered = true
	}
	l.mu.Unlock()
	if why != "" {
		http.Error(w, why, http.StatusBadRequest)
		return
	}
	var red redirect
	if e := q.Get("error"); e != "" {
		red.err = fmt.Errorf("the authorization server answered %s: %s", e, q.Get("error_description"))
		http.Error(w, "Authorization failed: "+e+". You can close this window.", http.StatusBadRequest)
	} else {
		red.res = &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}
		fmt.Fprintln(w, "mcpwitness is authorized. You can close this window.")
	}
	f.got <- red
}
