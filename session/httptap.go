package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
)

// httpTap is the raw tap on Streamable HTTP: an http.RoundTripper that
// records every JSON-RPC frame in request and response bodies (plain JSON or
// server-sent events) and adds the user's headers. Wrapping the SDK's
// connection instead would lose its standalone GET stream and its
// protocol-version header.
type httpTap struct {
	base    http.RoundTripper
	tap     *tap
	headers http.Header
	// record is false for legacy SSE, whose frames are recorded at the
	// connection instead.
	record bool
}

func (h *httpTap) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for name, values := range h.headers {
		req.Header.Del(name)
		for _, v := range values {
			req.Header.Add(name, v)
		}
	}
	if h.record && req.Body != nil && req.Method == http.MethodPost {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		if w := watcherFrom(req.Context()); w != nil {
			h.claimRaw(w, body)
		}
		h.tap.frame(Send, bytes.TrimSpace(body))
	}
	resp, err := h.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 300 && !(req.Method == http.MethodGet && resp.StatusCode == http.StatusMethodNotAllowed) {
		h.tap.log.Append(Event{Kind: KindError, Text: fmt.Sprintf("HTTP %s for %s %s", resp.Status, req.Method, req.URL.Path)})
	}
	if !h.record || resp.Body == nil {
		return resp, nil
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mt {
	case "application/json":
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if len(bytes.TrimSpace(body)) > 0 {
			h.tap.frame(Recv, bytes.TrimSpace(body))
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if err != nil {
			resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{err}))
		}
	case "text/event-stream":
		resp.Body = &sseTap{rc: resp.Body, tap: h.tap}
	}
	return resp, nil
}

// claimRaw registers w for the request in body, read from the raw bytes
// (the RoundTripper sees no jsonrpc.Message).
func (h *httpTap) claimRaw(w *watcher, body []byte) {
	w.mu.Lock()
	claimed := w.id != ""
	w.mu.Unlock()
	if claimed {
		return
	}
	var env envelope
	if json.Unmarshal(body, &env) != nil || env.Method == "" || len(env.ID) == 0 {
		return
	}
	h.tap.watch(string(env.ID), w)
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// sseTap passes a server-sent event stream through untouched, recording the
// data of each event as a frame as soon as the event is complete.
type sseTap struct {
	rc   io.ReadCloser
	tap  *tap
	line []byte
	data []string
}

func (s *sseTap) Read(p []byte) (int, error) {
	n, err := s.rc.Read(p)
	s.feed(p[:n])
	if err == io.EOF {
		s.dispatch()
	}
	return n, err
}

func (s *sseTap) Close() error { return s.rc.Close() }

func (s *sseTap) feed(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			s.line = append(s.line, b...)
			return
		}
		s.line = append(s.line, b[:i]...)
		s.handle(strings.TrimSuffix(string(s.line), "\r"))
		s.line = s.line[:0]
		b = b[i+1:]
	}
}

func (s *sseTap) handle(line string) {
	switch {
	case line == "":
		s.dispatch()
	case strings.HasPrefix(line, "data:"):
		s.data = append(s.data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
	}
}

func (s *sseTap) dispatch() {
	if len(s.data) == 0 {
		return
	}
	data := strings.Join(s.data, "\n")
	s.data = s.data[:0]
	if strings.TrimSpace(data) != "" {
		s.tap.frame(Recv, []byte(strings.TrimSpace(data)))
	}
}
