package demo

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Endpoint is the path [ServeHTTP] serves the demo server on.
const Endpoint = "/mcp"

// ServeStdio serves one session over the process's stdin/stdout until ctx is
// done or the client goes away. Either way it returns nil; it returns an
// error only when the session could not start or broke.
func ServeStdio(ctx context.Context, opts *Options) error {
	return serve(ctx, New(withTasks(opts)), Tasks(&mcp.StdioTransport{}))
}

// serve runs one session of s over t until ctx is done or the peer goes.
func serve(ctx context.Context, s *mcp.Server, t mcp.Transport) error {
	err := s.Run(ctx, t)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// Handler returns the http.Handler serving the demo server over Streamable
// HTTP (for httptest). It serves every path. All the sessions it serves share
// one demo server, so a tool list changed by toggle_tools changes for all of
// them.
func Handler(opts *Options) http.Handler {
	s := New(withTasks(opts))
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	h := &taskHandler{server: s, next: sdk, sessions: map[string]*httpTasks{}}
	if opts != nil {
		h.step = opts.TaskStep
	}
	return h
}

// ServeHTTP serves Streamable HTTP on addr (e.g. "127.0.0.1:0"); once
// listening it calls ready, if not nil, with the endpoint URL
// ("http://127.0.0.1:43123/mcp"), whose host part is the bound address. It
// returns when ctx is done (nil), or when the listener fails.
func ServeHTTP(ctx context.Context, addr string, opts *Options, ready func(url string)) error {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("demo server: %w", err)
	}
	mux := http.NewServeMux()
	if opts != nil && opts.Auth {
		ah := AuthHandler(opts, "http://"+ln.Addr().String())
		mux.Handle(Endpoint, ah)
		mux.Handle("/.well-known/", ah)
		for _, p := range []string{"/register", "/authorize", "/token"} {
			mux.Handle(p, ah)
		}
	} else {
		mux.Handle(Endpoint, Handler(opts))
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "not found: the MCP endpoint of this server is "+Endpoint, http.StatusNotFound)
	})
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		// Requests, and the long-lived event streams among them, end with ctx.
		BaseContext: func(net.Listener) context.Context { return ctx },
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	if ready != nil {
		ready("http://" + ln.Addr().String() + Endpoint)
	}
	select {
	case err := <-served:
		return fmt.Errorf("demo server: %w", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		srv.Close()
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("demo server: %w", err)
	}
	return nil
}
