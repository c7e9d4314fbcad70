package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// The tools every mode lists and calls: pages of tools/list, cursors, and
// tools/call answers.

type tool struct {
	Name         string `json:"name"`
	Description  string `json:"description"`
	InputSchema  any    `json:"inputSchema"`
	OutputSchema any    `json:"outputSchema,omitempty"`
	Execution    any    `json:"execution,omitempty"`
}

type listResult struct {
	Tools      []tool `json:"tools"`
	NextCursor string `json:"nextCursor,omitempty"`
	TTLMs      int    `json:"ttlMs,omitempty"`
}

func (s *server) listTools(req request) {
	var p struct {
		Cursor string `json:"cursor"`
	}
	_ = json.Unmarshal(req.Params, &p)
	page, next, ok := s.locate(p.Cursor)
	if !ok {
		s.fail(req.ID, codeInvalidParams, fmt.Sprintf("invalid cursor %q", p.Cursor))
		return
	}
	res := listResult{Tools: s.pageTools(page), NextCursor: next}
	if s.cfg.mode == "ttl" {
		res.TTLMs = 60000
	}
	if s.cfg.mode == "list-changed-walk" && next == "" {
		s.toolsChanged()
	}
	if s.cfg.mode == "garbage" {
		s.write([]byte("this is not json\n"))
		s.write([]byte(`{"jsonrpc":"2.0","id":` + "\n"))
	}
	s.reply(req.ID, res)
}

// locate maps a request cursor to the page it names and the cursor of the
// page after it ("" on the last page), for tools/list in this mode.
func (s *server) locate(cursor string) (page int, next string, ok bool) {
	style := pagesBounded
	switch s.cfg.mode {
	case "cursor-loop":
		style = pagesLoop
	case "endless":
		style = pagesEndless
	}
	return pageOf(style, s.cfg.pages, cursor)
}

// How a list pages: through a bounded run of pages, round a loop of
// cursors, or without end.
const (
	pagesBounded = iota
	pagesLoop
	pagesEndless
)

// pageOf maps cursor to its page and the cursor of the page after it ("" on
// the last page) in a list that pages as style says (of pages pages when
// bounded).
func pageOf(style, pages int, cursor string) (page int, next string, ok bool) {
	switch style {
	case pagesLoop:
		switch cursor {
		case "":
			return 1, "A", true
		case "A":
			return 2, "B", true
		case "B":
			return 3, "A", true
		}
		return 0, "", false
	case pagesEndless:
		page = 1
		if cursor != "" {
			n, err := strconv.Atoi(strings.TrimPrefix(cursor, "p"))
			if err != nil || n < 1 || !strings.HasPrefix(cursor, "p") {
				return 0, "", false
			}
			page = n + 1
		}
		return page, "p" + strconv.Itoa(page), true
	}
	page = 1
	if cursor != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(cursor, "c"))
		if err != nil || n < 1 || n >= pages || !strings.HasPrefix(cursor, "c") {
			return 0, "", false
		}
		page = n + 1
	}
	if page < pages {
		next = "c" + strconv.Itoa(page)
	}
	return page, next, true
}

// pageTools returns the tools on page (from 1).
func (s *server) pageTools(page int) []tool {
	if s.cfg.mode == "env" {
		return []tool{{
			Name:        "env",
			Description: "Returns the server's environment variable named by the argument name.",
			InputSchema: map[string]any{
				"type":       "object",
				"properties": map[string]any{"name": map[string]any{"type": "string"}},
				"required":   []string{"name"},
			},
		}}
	}
	tools := []tool{}
	if s.cfg.mode == "empty-page-cursor" && page == 2 {
		return tools
	}
	for i := 1; i <= s.cfg.pageSize; i++ {
		t := tool{
			Name:        fmt.Sprintf("tool_%d_%d", page, i),
			Description: fmt.Sprintf("Tool %d on page %d.", i, page),
			InputSchema: map[string]any{"type": "object"},
		}
		switch {
		case s.cfg.mode == "duplicate" && page == 2 && i == 1:
			t.Name = "tool_1_1"
			t.Description = "Same name as the first tool of page 1."
		case s.cfg.mode == "task-required" && t.Name == "tool_1_1":
			t.Description = "Requires task-based execution."
			t.Execution = map[string]any{"taskSupport": "required"}
		case s.cfg.mode == "task-required" && t.Name == "tool_1_2":
			t.Description = "Answers structuredContent that does not match its outputSchema."
			t.OutputSchema = map[string]any{
				"type":       "object",
				"properties": map[string]any{"n": map[string]any{"type": "integer"}},
				"required":   []string{"n"},
			}
		}
		tools = append(tools, t)
	}
	if s.cfg.mode == "task-required" && page == s.cfg.pages {
		tools = append(tools,
			tool{
				Name:         "ref_broken",
				Description:  "Its outputSchema holds a $ref that does not resolve.",
				InputSchema:  map[string]any{"type": "object"},
				OutputSchema: map[string]any{"$ref": "#/$defs/nope"},
			},
			tool{
				Name:         "schema_broken",
				Description:  "Its outputSchema cannot be compiled.",
				InputSchema:  map[string]any{"type": "object"},
				OutputSchema: map[string]any{"type": 12},
			})
	}
	return tools
}

// listed reports whether a tool of that name is on some page. Endless mode
// knows every well-formed tool_P_I.
func (s *server) listed(name string) bool {
	if s.cfg.mode == "endless" {
		var p, i int
		n, _ := fmt.Sscanf(name, "tool_%d_%d", &p, &i)
		return n == 2 && name == fmt.Sprintf("tool_%d_%d", p, i) && p >= 1 && i >= 1 && i <= s.cfg.pageSize
	}
	for page := 1; page <= s.cfg.pages; page++ {
		for _, t := range s.pageTools(page) {
			if t.Name == name {
				return true
			}
		}
	}
	return false
}

type content struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type callResult struct {
	Content           []content `json:"content"`
	StructuredContent any       `json:"structuredContent,omitempty"`
	IsError           bool      `json:"isError,omitempty"`
}

// toolsChanged sends notifications/tools/list_changed.
func (s *server) toolsChanged() {
	s.write([]byte(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}` + "\n"))
}

// logFlood sends -logs log messages, a thousand lines a write.
func (s *server) logFlood() {
	var b []byte
	for i := range s.cfg.logs {
		b = fmt.Appendf(b, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"log line %d of a flood"}}`+"\n", i+1)
		if (i+1)%1000 == 0 || i+1 == s.cfg.logs {
			s.write(b)
			b = b[:0]
		}
	}
}

func (s *server) callTool(req request) {
	var p struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
	}
	_ = json.Unmarshal(req.Params, &p)
	if !s.listed(p.Name) {
		s.fail(req.ID, codeInvalidParams, "unknown tool: "+p.Name)
		return
	}
	if s.cfg.mode == "die-on-call" {
		s.logf("fatal: crashing on purpose")
		os.Exit(3)
	}
	text := func(t string) callResult { return callResult{Content: []content{{"text", t}}} }
	structured := func(v any) callResult {
		b, _ := json.Marshal(v)
		return callResult{Content: []content{{"text", string(b)}}, StructuredContent: v}
	}
	switch {
	case s.cfg.mode == "task-required" && p.Name == "tool_1_1":
		// What the 2025-11-25 tasks utility asks of a server when a tool
		// that requires a task is called without one.
		s.fail(req.ID, codeMethodNotFound, fmt.Sprintf("tool %q requires task-based execution", p.Name))
	case s.cfg.mode == "task-required" && p.Name == "tool_1_2":
		s.reply(req.ID, structured(map[string]any{"n": "not a number"}))
	case p.Name == "ref_broken" || p.Name == "schema_broken":
		s.reply(req.ID, structured(map[string]any{}))
	case s.cfg.mode == "list-changed" && p.Name == "tool_1_1":
		s.toolsChanged()
		s.reply(req.ID, text("ok"))
	case s.cfg.mode == "list-changed" && p.Name == "tool_1_2":
		s.reply(req.ID, text("ok"))
		s.toolsChanged()
	case s.cfg.mode == "log-flood":
		s.logFlood()
		s.reply(req.ID, text("ok"))
	case s.cfg.mode == "env" && p.Arguments["name"] == "@session":
		s.reply(req.ID, text(sessionReport()))
	case s.cfg.mode == "env" && p.Arguments["name"] == "@tty":
		tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
		if err != nil {
			s.reply(req.ID, text("no terminal: "+err.Error()))
			return
		}
		tty.Close()
		s.reply(req.ID, text("terminal open"))
	case s.cfg.mode == "env":
		name, _ := p.Arguments["name"].(string)
		value, ok := os.LookupEnv(name)
		if !ok {
			res := text(fmt.Sprintf("%s is not set", name))
			res.IsError = true
			s.reply(req.ID, res)
			return
		}
		s.reply(req.ID, text(value))
	default:
		s.reply(req.ID, text("ok"))
	}
}
