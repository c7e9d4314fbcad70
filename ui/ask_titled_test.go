package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/record"
	"mcpwitness/session"
)

// titledSchema asks as server-everything's simulate-research-query and
// trigger-elicitation-request do: a titled single choice as a oneOf of
// consts (2025-11-25), a legacy enum with enumNames, and multi-selects
// (an array of an enum, with a default; an array of titled consts).
const titledSchema = `{"type":"object","properties":{
	"interpretation":{"type":"string","title":"Clarification","oneOf":[
		{"const":"physics","title":"Quantum physics"},{"const":"computing","title":"Quantum computing"}]},
	"pet":{"type":"string","enum":["pet-1","pet-2"],"enumNames":["Cats","Dogs"],"default":"pet-2"},
	"sides":{"type":"array","items":{"type":"string","enum":["salad","fries","soup"]},"default":["fries"]},
	"heroes":{"type":"array","items":{"anyOf":[{"const":"hero-1","title":"Ada"},{"const":"hero-2","title":"Grace"}]}}},
	"required":["interpretation"]}`

// A titled enum is a choice in the modal's form, shown by its title,
// answered by its const, and a multi-select a field whose choices space
// picks (they were a raw JSON editor, the oneOf and arrays read as a
// schema a form cannot show).
func TestModalFormOffersTitledChoices(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "titled", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "ask_titled", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Which one?", RequestedSchema: json.RawMessage(titledSchema)})
		if err != nil {
			return nil, err
		}
		b, _ := json.Marshal(res)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
	})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	log := record.NewLog(nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := session.Dial(ctx, session.Target{Transport: ct, Name: "titled"}, &session.Options{Log: log, Timeout: time.Minute,
		Protocol: "2025-11-25", Answerer: session.NewInteractive()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	h := newHarness(t, options{Backend: s})
	h.update(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.bridge(log)
	info := s.Info()
	h.feed(record.Event{Kind: record.KindConnect, Server: &info})
	h.until("the tools", func() bool { return h.m.St.LatestTools() != nil && len(h.m.St.LatestTools().Tools) == 1 })
	h.startCall("ask_titled")

	if h.m.ask.form.Raw {
		t.Fatalf("the titled choices opened the raw JSON editor:\n%s", h.screen())
	}
	scr := h.screen()
	for _, want := range []string{"interpretation*", "‹ Quantum physics (physics) › 1/2", "‹ Dogs (pet-2) › 2/2",
		"‹ ☐ salad › 1/3 · 1 picked", "‹ ☐ Ada (hero-1) › 1/2 · 0 picked"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the form lacks %q:\n%s", want, scr)
		}
	}
	// The fields come in the order the schema reached the client.
	to := func(name string) {
		for h.m.ask.form.Fields[h.m.ask.form.Focus].Name != name {
			h.key("tab")
		}
	}
	to("interpretation")
	h.key("right") // the next interpretation
	// sides: move to soup and pick it beside the default fries; heroes:
	// pick Grace.
	to("sides")
	h.key("left")
	h.key("space")
	to("heroes")
	h.key("right")
	h.key("space")
	h.until("the live check", func() bool {
		c := h.m.ask.form.Checked
		return c != nil && len(c.Errs) == 0 && c.JsonErr == ""
	})
	h.key("ctrl+s")
	if got := h.callAnswer("ask_titled"); got != `{"action":"accept","content":{"heroes":["hero-2"],"interpretation":"computing","pet":"pet-2","sides":["fries","soup"]}}` {
		t.Errorf("the server got %s", got)
	}
}
