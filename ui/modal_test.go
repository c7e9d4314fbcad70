//lint:file-ignore SA1019 servers on protocols before 2026-07-28 still ask for roots and sampling; the modal answers them

package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/fold"
	"mcpwitness/record"
	"mcpwitness/session"

	"mcpwitness/ui/panes"
)

// askSchema is the form the asking server's ask_form asks for.
const askSchema = `{"type":"object","properties":{
	"name":{"type":"string","description":"who you are"},
	"colour":{"type":"string","enum":["red","green","blue"],"default":"green"},
	"age":{"type":"integer","minimum":0}},"required":["name"]}`

// askingServer is a server whose tools ask the client during the call and
// answer with what it said (as JSON, or the error): ask_form, ask_sampling,
// ask_url, ask_wide (a form of more properties than a form takes), read_roots, and ask_then_give_up, which asks and stops waiting
// once release closes. changed receives each roots list_changed.
type askingServer struct {
	ss      *mcp.ServerSession
	release chan struct{}
	changed chan struct{}
	target  session.Target
	// url is the URL ask_url asks to open (one with an ESC unless set).
	url atomic.Pointer[string]
}

func newAskingServer(t *testing.T) *askingServer {
	t.Helper()
	a := &askingServer{release: make(chan struct{}), changed: make(chan struct{}, 8)}
	srv := mcp.NewServer(&mcp.Implementation{Name: "asking", Version: "1"}, &mcp.ServerOptions{
		RootsListChangedHandler: func(context.Context, *mcp.RootsListChangedRequest) { a.changed <- struct{}{} },
	})
	answer := func(v any, err error) (*mcp.CallToolResult, error) {
		text := "error: " + errText(err)
		if err == nil {
			b, _ := json.Marshal(v)
			text = string(b)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
	}
	obj := map[string]any{"type": "object"}
	srv.AddTool(&mcp.Tool{Name: "ask_form", InputSchema: obj}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return answer(req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Who are you?", RequestedSchema: json.RawMessage(askSchema)}))
	})
	srv.AddTool(&mcp.Tool{Name: "ask_sampling", InputSchema: obj}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return answer(req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 100, SystemPrompt: "Be brief.",
			Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "Why paginate?"}}}}))
	})
	srv.AddTool(&mcp.Tool{Name: "ask_with_token", InputSchema: obj}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		p := &mcp.ElicitParams{Message: "?", RequestedSchema: json.RawMessage(askSchema)}
		p.SetProgressToken(req.Params.GetProgressToken())
		return answer(req.Session.Elicit(ctx, p))
	})
	srv.AddTool(&mcp.Tool{Name: "ask_in_result", InputSchema: obj}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if r, ok := req.Params.InputResponses["who"]; ok {
			return answer(r, nil)
		}
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"who": &mcp.ElicitParams{Mode: "form", Message: "Who are you?",
			RequestedSchema: json.RawMessage(askSchema)}}}, nil
	})
	srv.AddTool(&mcp.Tool{Name: "ask_url", InputSchema: obj}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		u := "https://example.com/login?x=\x1b[31mred"
		if p := a.url.Load(); p != nil {
			u = *p
		}
		return answer(req.Session.Elicit(ctx, &mcp.ElicitParams{Mode: "url", Message: "Sign in, please.",
			URL: u, ElicitationID: "e1"}))
	})
	srv.AddTool(&mcp.Tool{Name: "ask_wide", InputSchema: obj}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return answer(req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "All of it?", RequestedSchema: json.RawMessage(wideSchema(panes.MaxFormFields + 1))}))
	})
	srv.AddTool(&mcp.Tool{Name: "read_roots", InputSchema: obj}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return answer(req.Session.ListRoots(ctx, nil))
	})
	srv.AddTool(&mcp.Tool{Name: "ask_then_give_up", InputSchema: obj}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go func() {
			select {
			case <-a.release:
				cancel()
			case <-ctx.Done():
			}
		}()
		return answer(req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "?", RequestedSchema: json.RawMessage(askSchema)}))
	})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	a.ss, a.target = ss, session.Target{Transport: ct, Name: "asking"}
	return a
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// askHarness opens the UI at 100×30 on the asking server, with a person
// answering its requests, on protocol 2025-11-25 (or the one given).
func askHarness(t *testing.T, protocol ...string) (*harness, *askingServer) {
	t.Helper()
	version := "2025-11-25"
	if len(protocol) > 0 {
		version = protocol[0]
	}
	srv := newAskingServer(t)
	log := record.NewLog(nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := session.Dial(ctx, srv.target, &session.Options{Log: log, Timeout: time.Minute, Protocol: version,
		Answerer: session.NewInteractive(), EditRoots: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	h := newHarness(t, options{Backend: s})
	h.update(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.bridge(log)
	info := s.Info()
	h.feed(record.Event{Kind: record.KindConnect, Server: &info})
	h.until("the tools", func() bool { return h.m.St.LatestTools() != nil && len(h.m.St.LatestTools().Tools) == 8 })
	return h, srv
}

// startCall selects tool and sends a call with no arguments; the modal
// opens when the tool asks.
func (h *harness) startCall(tool string) {
	h.t.Helper()
	h.until("no call in flight", func() bool { return h.m.ops.call == nil && !h.m.ops.walking() })
	h.m.tools.PickedKey = tool
	h.m.tools.Reselect()
	h.m.sync()
	h.key("enter")
	h.key("ctrl+s")
	h.until("the modal for "+tool, func() bool { return h.m.mode == modeAsk && h.m.ask.current() != nil })
}

// callAnswer waits for the call to tool to end and returns its text.
func (h *harness) callAnswer(tool string) string {
	h.t.Helper()
	var c *fold.Call
	h.until("the call to "+tool, func() bool {
		c = h.m.detail.Call()
		return h.m.ops.call == nil && c != nil && c.Tool == tool && c.Done
	})
	var res struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	_ = json.Unmarshal(c.Result, &res)
	if len(res.Content) == 0 {
		h.t.Fatalf("the call answered %s", c.Result)
	}
	return res.Content[0].Text
}

// modalGolden checks that the screen with the modal open fits 100×30, and
// compares the modal's box (the screen behind it holds the times of the
// live session) with its golden file.
func modalGolden(t *testing.T, h *harness) {
	t.Helper()
	checkFits(t, h.m.View().Content, 100, 30)
	box := h.m.askView()
	if h.m.mode == modeRoots {
		box = h.m.rootsView()
	}
	golden.RequireEqual(t, ansi.Strip(box))
}

func TestModalElicitationForm(t *testing.T) {
	h, _ := askHarness(t)
	h.startCall("ask_form")
	s := h.screen()
	for _, want := range []string{"The server asks · elicitation/create · form", "asked by call #1 ask_form · request ask-1",
		"Who are you?", "name*", "colour", "‹ green ›"} {
		if !strings.Contains(s, want) {
			t.Errorf("the modal lacks %q:\n%s", want, s)
		}
	}
	// The required name is missing: the live check says so and accept is
	// refused.
	h.until("the live check", func() bool { return h.m.ask.form.Checked != nil })
	h.key("ctrl+s")
	if h.m.mode != modeAsk || !strings.Contains(h.screen(), "does not match the requested schema") {
		t.Fatalf("an answer missing a required field was accepted:\n%s", h.screen())
	}
	for h.m.ask.form.Fields[h.m.ask.form.Focus].Name != "name" {
		h.key("tab")
	}
	h.typeText("Ada")
	h.until("the check of the typed name", func() bool {
		c := h.m.ask.form.Checked
		return c != nil && len(c.Errs) == 0 && c.JsonErr == ""
	})
	t.Run("golden", func(t *testing.T) { modalGolden(t, h) })
	h.key("ctrl+s")
	if got := h.callAnswer("ask_form"); got != `{"action":"accept","content":{"colour":"green","name":"Ada"}}` {
		t.Errorf("the server got %s", got)
	}
	if h.m.mode != modeNormal {
		t.Errorf("mode %v after the answer, want normal", h.m.mode)
	}
	// The call's timeline shows the request and the answer.
	d := h.detailText()
	for _, want := range []string{"Requests from the server during the call", "elicitation/create asked", "elicitation/create accept with colour, name"} {
		if !strings.Contains(d, want) {
			t.Errorf("the call's timeline lacks %q:\n%s", want, d)
		}
	}

	h.startCall("ask_form")
	h.key("ctrl+x")
	if got := h.callAnswer("ask_form"); got != `{"action":"decline"}` {
		t.Errorf("declined: the server got %s", got)
	}
	h.startCall("ask_form")
	h.key("esc")
	if got := h.callAnswer("ask_form"); got != `{"action":"cancel"}` {
		t.Errorf("cancelled: the server got %s", got)
	}
}

// An elicitation of more properties than a form takes is answered as raw
// JSON in the modal, which says why there is no form.
func TestModalElicitationTooWideForAForm(t *testing.T) {
	h, _ := askHarness(t)
	h.startCall("ask_wide")
	if f := &h.m.ask.form; !f.Raw || f.Fields != nil {
		t.Fatalf("raw %v, %d fields: want raw JSON", f.Raw, len(f.Fields))
	}
	if s := h.screen(); !strings.Contains(s, "All of it?") || !strings.Contains(s, "raw JSON") {
		t.Errorf("the modal:\n%s", s)
	}
	h.key("ctrl+r")
	if want := fmt.Sprintf("it has %d properties", panes.MaxFormFields+1); !strings.Contains(h.screen(), want) {
		t.Errorf("ctrl+r does not say %q:\n%s", want, h.screen())
	}
	h.key("esc")
	if got := h.callAnswer("ask_wide"); !strings.Contains(got, "cancel") {
		t.Errorf("the server got %s, want the cancel", got)
	}
}

func TestModalSampling(t *testing.T) {
	h, _ := askHarness(t)
	h.startCall("ask_sampling")
	s := h.screen()
	for _, want := range []string{"The server asks · sampling/createMessage", "maxTokens 100", "System prompt", "Be brief.",
		"Messages (1)", "Why paginate?", "stop reason endTurn"} {
		if !strings.Contains(s, want) {
			t.Errorf("the modal lacks %q:\n%s", want, s)
		}
	}
	h.typeText("Lists are long.")
	h.key("ctrl+t")
	t.Run("golden", func(t *testing.T) { modalGolden(t, h) })
	h.key("ctrl+s")
	got := h.callAnswer("ask_sampling")
	for _, want := range []string{`"text":"Lists are long."`, `"stopReason":"stopSequence"`, `"role":"assistant"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the server got %s, want %s in it", got, want)
		}
	}
	// A reply loaded from a file: text fills the reply, a JSON
	// CreateMessageResult is sent as it is.
	dir := t.TempDir()
	text, result := filepath.Join(dir, "reply.txt"), filepath.Join(dir, "reply.json")
	if os.WriteFile(text, []byte("From a file."), 0o600) != nil ||
		os.WriteFile(result, []byte(`{"role":"assistant","model":"m9","stopReason":"maxTokens","content":{"type":"text","text":"whole"}}`), 0o600) != nil {
		t.Fatal("writing the reply files")
	}
	h.startCall("ask_sampling")
	h.key("ctrl+l")
	h.typeText(text)
	h.key("enter")
	h.until("the reply loaded", func() bool { return h.m.ask.reply.Value() == "From a file." })
	h.key("ctrl+s")
	if got := h.callAnswer("ask_sampling"); !strings.Contains(got, `"text":"From a file."`) {
		t.Errorf("the server got %s", got)
	}
	h.startCall("ask_sampling")
	h.key("ctrl+l")
	h.typeText(result)
	h.key("enter")
	if got := h.callAnswer("ask_sampling"); !strings.Contains(got, `"model":"m9"`) || !strings.Contains(got, `"stopReason":"maxTokens"`) {
		t.Errorf("the server got %s", got)
	}

	// Declining (or esc) is the specification's user rejection.
	for _, k := range []string{"ctrl+x", "esc"} {
		h.startCall("ask_sampling")
		h.key(k)
		if got := h.callAnswer("ask_sampling"); !strings.Contains(got, "User rejected sampling request") {
			t.Errorf("%s: the server got %s", k, got)
		}
	}
}

func TestModalElicitationURL(t *testing.T) {
	h, srv := askHarness(t)
	h.startCall("ask_url")
	if s := h.screen(); !strings.Contains(s, "https://example.com/login?x=␛[31mred") || strings.Contains(h.m.View().Content, "\x1b[31mred") {
		t.Errorf("the URL is not shown safely:\n%s", s)
	}
	if err := srv.ss.NotifyElicitationComplete(context.Background(), &mcp.ElicitationCompleteParams{ElicitationID: "e1"}); err != nil {
		t.Fatal(err)
	}
	h.until("the completion", func() bool { r := h.m.ask.current(); return r != nil && r.complete })
	t.Run("golden", func(t *testing.T) { modalGolden(t, h) })
	h.key("enter")
	if got := h.callAnswer("ask_url"); got != `{"action":"accept"}` {
		t.Errorf("the server got %s", got)
	}
	h.startCall("ask_url")
	h.key("ctrl+x")
	if got := h.callAnswer("ask_url"); got != `{"action":"decline"}` {
		t.Errorf("declined: the server got %s", got)
	}
	h.startCall("ask_url")
	h.key("esc")
	if got := h.callAnswer("ask_url"); got != `{"action":"cancel"}` {
		t.Errorf("cancelled: the server got %s", got)
	}
}

// On 2026-07-28 the server asks through an input request in the call's
// result: the same modal answers it, the call goes again with the answer,
// and the call's timeline shows the round trip.
func TestModalAnswersAnInputRequestInAResult(t *testing.T) {
	h, _ := askHarness(t, "2026-07-28")
	h.startCall("ask_in_result")
	if s := h.screen(); !strings.Contains(s, "an input request in the call's result") {
		t.Errorf("the modal does not say how it was asked:\n%s", s)
	}
	for h.m.ask.form.Fields[h.m.ask.form.Focus].Name != "name" {
		h.key("tab")
	}
	h.typeText("Ada")
	h.until("the check of the typed name", func() bool {
		c := h.m.ask.form.Checked
		return c != nil && len(c.Errs) == 0
	})
	h.key("ctrl+s")
	if got := h.callAnswer("ask_in_result"); got != `{"action":"accept","content":{"colour":"green","name":"Ada"}}` {
		t.Errorf("the retried call answered %s", got)
	}
	d := h.detailText()
	for _, want := range []string{"tools/call round trip 1: the result asks for input (who)",
		"elicitation/create asked (an input request in a result)", "elicitation/create accept with colour, name"} {
		if !strings.Contains(d, want) {
			t.Errorf("the call's timeline lacks %q:\n%s", want, d)
		}
	}
}

// A request that carries the call's progress token names it.
func TestModalNamesTheProgressToken(t *testing.T) {
	h, _ := askHarness(t)
	h.startCall("ask_with_token")
	if s := h.screen(); !strings.Contains(s, `asked by call #1 ask_with_token · request ask-1 · progress token "mcpwitness-1"`) {
		t.Errorf("the modal does not name the token:\n%s", s)
	}
	h.key("esc")
	h.callAnswer("ask_with_token")
}

// A request the server stops waiting for closes its modal and says so.
func TestModalClosesWhenTheServerCancels(t *testing.T) {
	h, srv := askHarness(t)
	h.startCall("ask_then_give_up")
	close(srv.release)
	h.until("the modal closes", func() bool { return h.m.mode == modeNormal })
	if !strings.Contains(h.m.status.text, "the server cancelled the request") {
		t.Errorf("status %q", h.m.status.text)
	}
	h.callAnswer("ask_then_give_up")
}

func TestRootsEditor(t *testing.T) {
	h, srv := askHarness(t)
	h.key("o")
	h.until("the roots", func() bool { return h.m.mode == modeRoots && h.m.roots.loaded })
	if !strings.Contains(h.screen(), "No roots") {
		t.Errorf("the editor does not say there are none:\n%s", h.screen())
	}
	h.key("a")
	h.typeText("/srv/data")
	h.key("enter")
	h.until("the root added", func() bool { return len(h.m.roots.roots) == 1 })
	select {
	case <-srv.changed:
	case <-time.After(time.Minute):
		t.Fatal("the server was not told the roots changed")
	}
	t.Run("golden", func(t *testing.T) { modalGolden(t, h) })
	h.key("esc")
	h.startCallNoModal("read_roots")
	if got := h.callAnswer("read_roots"); got != `{"roots":[{"uri":"file:///srv/data"}]}` {
		t.Errorf("roots/list answered %s", got)
	}
	h.key("o")
	h.until("the roots", func() bool { return h.m.mode == modeRoots && h.m.roots.loaded })
	h.key("d")
	h.until("the root removed", func() bool { return len(h.m.roots.roots) == 0 })
	select {
	case <-srv.changed:
	case <-time.After(time.Minute):
		t.Fatal("the server was not told a root was removed")
	}
}

// startCallNoModal sends a call to tool that asks nothing of the person.
func (h *harness) startCallNoModal(tool string) {
	h.t.Helper()
	h.m.tools.PickedKey = tool
	h.m.tools.Reselect()
	h.m.sync()
	h.key("enter")
	h.key("ctrl+s")
}
