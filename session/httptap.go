package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"mcpwitness/jsonscan"
	"mcpwitness/record"
	"mcpwitness/session/oauth"
)

// httpTap is the raw tap on Streamable HTTP and legacy SSE: an
// http.RoundTripper that records every JSON-RPC frame in request and
// response bodies (plain JSON or server-sent events), gives the SDK only
// what the tap lets through, and adds the user's headers. Wrapping the
// SDK's connection instead would lose Streamable HTTP's standalone GET
// stream and its protocol-version header, and on both would let a frame
// the SDK cannot decode end the connection before the tap saw it.
type httpTap struct {
	base    http.RoundTripper
	tap     *tap
	headers http.Header
	// origin is the target's URL: -H and --header-cmd headers go only to
	// its origin (see [sameOrigin]).
	origin *url.URL
	// legacy is true for legacy SSE: answers come on the GET stream, which
	// opens with its endpoint event, and the SDK never reads a POST's
	// response body, so none is recorded or routed.
	legacy bool
	// limit caps every response body and event; once it has ended the
	// connection, every request fails with its error.
	limit *frameLimit
	// secrets redact the URLs in HTTP events.
	secrets *record.Redactor
	// headerCmd is --header-cmd: run for every request, its headers
	// applied after the configured ones.
	headerCmd string
	// headerLimit bounds each run of headerCmd. A run that exceeds it
	// makes every later request fail at once (timedOut), so one slow
	// command costs the bound once, not once per request (the handshake
	// alone sends two on 2026-07-28: server/discover, then initialize).
	headerLimit time.Duration
	timedOut    atomic.Bool
	// challenge makes a 401 or 403 fail with a [*oauth.ChallengeError] (OAuth is
	// off, so the SDK would only say "Unauthorized").
	challenge bool
	// lost is told of a 404 to a request that carried an Mcp-Session-Id:
	// the server lost that session.
	lost func(req *http.Request, id, url string)
}

func (h *httpTap) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := h.limit.cause(); err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	req, id, err := h.send(req)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	resp, err := h.base.RoundTrip(req)
	h.evidence(req, id, resp, err, time.Since(start))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusNotFound && h.lost != nil {
		if id := req.Header.Get("Mcp-Session-Id"); id != "" {
			h.lost(req, id, h.url(req))
		}
	}
	if h.challenge && (resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden) {
		drain(resp)
		return nil, oauth.NewChallengeError(req, resp, h.url(req))
	}
	if resp.StatusCode >= 300 && !(req.Method == http.MethodGet && resp.StatusCode == http.StatusMethodNotAllowed) {
		h.tap.log.Append(record.Event{Kind: record.KindError, Text: fmt.Sprintf("HTTP %s for %s %s", resp.Status, req.Method, req.URL.Path)})
	}
	if resp.Body != nil {
		h.receive(req, resp)
	}
	return resp, nil
}

// vend runs --header-cmd for req (body is its body) and sets the headers
// it printed; the event names them, never their values.
func (h *httpTap) vend(req *http.Request, body []byte) error {
	var vended http.Header
	var err error
	if h.timedOut.Load() {
		err = &HeaderCmdError{Method: req.Method, URL: h.url(req),
			Err: fmt.Errorf("no answer within %s to an earlier request, so it is not run again", h.headerLimit)}
	} else {
		vended, err = vendHeaders(req.Context(), h.headerCmd, req, body, h.url(req), h.headerLimit, h.secrets)
		var he *HeaderCmdError
		if errors.As(err, &he) && errors.Is(he.Err, errHeaderCmdSlow) {
			h.timedOut.Store(true)
		}
	}
	if err != nil {
		h.tap.log.Append(record.Event{Kind: record.KindHTTP, HTTP: &record.HTTPInfo{Step: record.HTTPVended, Method: req.Method, URL: h.url(req), Error: err.Error()}, Text: err.Error()})
		return err
	}
	names := make([]string, 0, len(vended))
	for name, values := range vended {
		req.Header[name] = values
		names = append(names, name)
	}
	slices.Sort(names)
	h.tap.log.Append(record.Event{Kind: record.KindHTTP, HTTP: &record.HTTPInfo{Step: record.HTTPVended, Method: req.Method, URL: h.url(req), Vended: names},
		Text: fmt.Sprintf("--header-cmd vended %s for %s %s", strings.Join(names, ", "), req.Method, req.URL.Path)})
	return nil
}

// leave readies req, bound for another origin than the target's: a
// redirect is followed without the -H headers, --header-cmd and the
// credential headers, and an event says so; any other request there is
// refused.
func (h *httpTap) leave(req *http.Request) error {
	if req.Response == nil {
		return fmt.Errorf("mcpwitness sends requests only to the server's origin %s, not to %s", origin(h.origin), h.url(req))
	}
	names := make([]string, 0, len(h.headers))
	for name := range h.headers {
		names = append(names, name)
	}
	for _, name := range stripCredentials(req.Header, names) {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	from := record.EventURL(req.Response.Request.URL, h.secrets)
	text := fmt.Sprintf("redirected from %s to another origin, %s: followed without the -H headers, --header-cmd and Authorization or Cookie", from, h.url(req))
	if len(names) > 0 {
		text += " (left out: " + strings.Join(names, ", ") + ")"
	}
	h.tap.log.Append(record.Event{Kind: record.KindHTTP, HTTP: &record.HTTPInfo{Step: record.HTTPCrossOrigin, Method: req.Method, URL: h.url(req), From: from, Dropped: names}, Text: text})
	return nil
}

// url is req's URL as events show it: credentials and secret query values
// replaced.
func (h *httpTap) url(req *http.Request) string {
	return record.EventURL(req.URL, h.secrets)
}

// evidence records one exchange: the request (id is the JSON-RPC id it
// carried), and the head of its response (status, time, session id,
// content type, Retry-After, WWW-Authenticate) or why there is none. The
// header values pass the target's secrets through the redactor, as every
// event does.
func (h *httpTap) evidence(req *http.Request, id string, resp *http.Response, err error, took time.Duration) {
	info := &record.HTTPInfo{Step: record.HTTPExchange, Method: req.Method, URL: h.url(req), RequestID: id, Ms: float64(took) / float64(time.Millisecond)}
	text := fmt.Sprintf("%s %s", req.Method, req.URL.Path)
	if err != nil {
		info.Error = err.Error()
		if h.secrets != nil {
			info.Error = h.secrets.String(info.Error)
		}
		text += ": " + info.Error
	} else {
		info.Status = resp.StatusCode
		info.SessionID = h.secrets.String(resp.Header.Get("Mcp-Session-Id"))
		if info.SessionID == "" {
			// The server names a session only when it makes it; the
			// request carries it from then on.
			info.SessionID = h.secrets.String(req.Header.Get("Mcp-Session-Id"))
		}
		info.ContentType = resp.Header.Get("Content-Type")
		info.RetryAfter = h.secrets.String(resp.Header.Get("Retry-After"))
		if auth := resp.Header.Values("WWW-Authenticate"); len(auth) > 0 {
			info.WWWAuthenticate = h.secrets.String(strings.Join(auth, ", "))
		}
		text += fmt.Sprintf(" → %d in %.1f ms", resp.StatusCode, info.Ms)
	}
	h.tap.log.Append(record.Event{Kind: record.KindHTTP, HTTP: info, Text: text})
}

// send returns a copy of req carrying the configured headers, and the
// JSON-RPC id of the message it posts ("" for none). A POST's body is read
// whole, recorded as a sent frame and given back to the request, and a
// watcher in its context is registered for it. A request to another
// origin than the target's carries none of the user's headers nor any
// credential (see [httpTap.leave]).
func (h *httpTap) send(req *http.Request) (*http.Request, string, error) {
	req = req.Clone(req.Context())
	own := h.origin == nil || sameOrigin(req.URL, h.origin)
	if !own {
		if err := h.leave(req); err != nil {
			return nil, "", err
		}
	}
	for name, values := range h.headers {
		if own {
			req.Header[name] = slices.Clone(values)
		}
	}
	var body []byte
	if req.Body != nil && req.Method == http.MethodPost {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, "", err
		}
		body = b
	}
	if h.headerCmd != "" && own {
		if err := h.vend(req, body); err != nil {
			return nil, "", err
		}
	}
	if req.Body == nil || req.Method != http.MethodPost {
		return req, "", nil
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	if w := watcherFrom(req.Context()); w != nil {
		h.claimRaw(w, body)
	}
	h.tap.frame(record.Send, bytes.TrimSpace(body))
	var id string
	if raw, ok := jsonscan.Member(body, "id"); ok {
		id = canonicalID(raw)
	}
	return req, id, nil
}

// receive taps the body of resp, the answer to req: an event stream is
// read through an [sseTap] as the SDK reads it; any other body is read
// here, never more than the limit (the SDK reads a JSON body whole), and a
// JSON one is recorded and routed.
func (h *httpTap) receive(req *http.Request, resp *http.Response) {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt == "text/event-stream" {
		resp.Body = &sseTap{rc: resp.Body, tap: h.tap, limit: h.limit,
			legacy: h.legacy && req.Method == http.MethodGet, stream: req.URL, secrets: h.secrets}
		return
	}
	body, err := h.readBody(resp)
	isJSON := !h.legacy && mt == "application/json" && len(bytes.TrimSpace(body)) > 0
	if err != nil {
		if isJSON {
			h.tap.frame(record.Recv, bytes.TrimSpace(body))
		}
		resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{err}))
		return
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if isJSON {
		h.receiveJSON(req, resp, bytes.TrimSpace(body))
	}
}

// receiveJSON records an application/json body and gives the SDK what the
// tap lets through. The SDK takes one message per JSON body and ends the
// whole connection over one it cannot decode, so: a frame nested too deep
// is passed on cut; a batch becomes an event stream, one event per message
// (its stray answers left out); a body that is nothing but a stray answer,
// or not JSON, becomes an empty event stream, on which the SDK ends that
// request alone ("request terminated without response"). The body of an
// HTTP error is the SDK's only clue to the error, so it is passed on as
// it came.
func (h *httpTap) receiveJSON(req *http.Request, resp *http.Response, body []byte) {
	fwd, ok := h.tap.receive(body)
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		return
	}
	if ok && fwd[0] != '[' {
		if !bytes.Equal(fwd, body) {
			replaceBody(resp, "application/json", fwd)
		}
		return
	}
	if !ok && !json.Valid(body) {
		h.tap.log.Append(record.Event{Kind: record.KindError, Dir: record.Recv, Size: len(body), Text: fmt.Sprintf(
			"the server answered %s %s with an application/json body that is not JSON; it was not passed to the SDK",
			req.Method, req.URL.Path)})
	}
	var stream bytes.Buffer
	var members []json.RawMessage
	if ok && json.Unmarshal(fwd, &members) == nil {
		for _, m := range members {
			writeData(&stream, m)
			stream.WriteByte('\n')
		}
	}
	replaceBody(resp, "text/event-stream", stream.Bytes())
}

// replaceBody gives the SDK body, of media type mt, instead of what the
// server sent.
func replaceBody(resp *http.Response, mt string, body []byte) {
	resp.Header = resp.Header.Clone()
	resp.Header.Set("Content-Type", mt)
	resp.Header.Del("Content-Length")
	resp.ContentLength = int64(len(body))
	resp.Body = io.NopCloser(bytes.NewReader(body))
}

// readBody reads resp's body up to the frame limit. Past it, or when the
// Content-Length already says more, the connection ends with the limit's
// error and what was read is dropped.
func (h *httpTap) readBody(resp *http.Response) ([]byte, error) {
	defer resp.Body.Close()
	if resp.ContentLength > h.limit.max {
		return nil, h.limit.exceeded("HTTP body", resp.ContentLength)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, h.limit.max+1))
	if int64(len(body)) > h.limit.max {
		return nil, h.limit.exceeded("HTTP body", 0)
	}
	return body, err
}

// claimRaw registers w for the request in body, read from the raw bytes
// (the RoundTripper sees no jsonrpc.Message).
func (h *httpTap) claimRaw(w *watcher, body []byte) {
	var env envelope
	if json.Unmarshal(body, &env) != nil || env.Method == "" || len(env.ID) == 0 {
		return
	}
	h.tap.watch(string(env.ID), w)
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
