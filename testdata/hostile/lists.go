package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// The modes of this file: the lists other than tools, and the requests
// about their items, misbehaving. Tools are listed as in normal mode.
//
//	lists-paged     prompts/list, resources/list and resources/templates/list
//	                each answer -pages pages of -page-size items, cursors
//	                "c1", "c2", …: prompts prompt_P_I (one required argument
//	                "x"), resources hostile://r/P/I, templates
//	                hostile://t/P/I/{x}.
//	lists-loop      the same lists, page 1 → nextCursor "A", page A → "B",
//	                page B → "A".
//	lists-endless   the same lists, every page naming a fresh cursor "p1",
//	                "p2", … forever.
//	hang-requests   lists-paged, and never answers resources/read,
//	                prompts/get or completion/complete.
//	bad-answers     lists-paged, and answers against the rules:
//	                resources/read with an item that has no uri and neither
//	                text nor blob, prompts/get with a message of role
//	                "system", completion/complete with 101 values and no
//	                hasMore.
//	heavy-markdown  lists-paged, and answers every resources/read with
//	                text/markdown of 5,000 emphasis openers closed in
//	                reverse (some 30 KB), the nesting that costs a Markdown
//	                renderer most.
//	prompts-changed lists-paged, and a prompts/get of prompt_1_1 sends
//	                notifications/prompts/list_changed before its answer,
//	                of prompt_1_2 after it (the list itself stays the
//	                same); each answer is one user message.
const (
	modeListsPaged   = "lists-paged"
	modeListsLoop    = "lists-loop"
	modeListsEndless = "lists-endless"
	modeHangRequests = "hang-requests"
	modeBadAnswers   = "bad-answers"
	modeHeavyMD      = "heavy-markdown"
	modePromptsMoved = "prompts-changed"
)

// listsTheme holds the modes of this file.
func listsTheme() theme {
	return theme{
		modes:  []string{modeListsPaged, modeListsLoop, modeListsEndless, modeHangRequests, modeBadAnswers, modeHeavyMD, modePromptsMoved},
		handle: handleLists,
	}
}

// listMember returns the member of a list answer that holds its items.
func listMember(method string) (string, bool) {
	switch method {
	case "prompts/list":
		return "prompts", true
	case "resources/list":
		return "resources", true
	case "resources/templates/list":
		return "resourceTemplates", true
	}
	return "", false
}

func handleLists(s *server, req request) bool {
	if len(req.ID) == 0 {
		return false
	}
	if member, ok := listMember(req.Method); ok {
		listOther(s, req, member)
		return true
	}
	switch req.Method {
	case "resources/read", "prompts/get", "completion/complete":
		switch s.cfg.mode {
		case modeHangRequests:
			return true
		case modeBadAnswers:
			badAnswer(s, req)
			return true
		case modeHeavyMD:
			if req.Method == "resources/read" {
				heavyMarkdown(s, req)
				return true
			}
		case modePromptsMoved:
			if req.Method == "prompts/get" {
				promptMoved(s, req)
				return true
			}
		}
	}
	return false
}

// listOther answers one page of a list other than tools.
func listOther(s *server, req request, member string) {
	var p struct {
		Cursor string `json:"cursor"`
	}
	_ = json.Unmarshal(req.Params, &p)
	page, next, ok := locateOther(s.cfg, p.Cursor)
	if !ok {
		s.fail(req.ID, codeInvalidParams, fmt.Sprintf("invalid cursor %q", p.Cursor))
		return
	}
	items := []any{}
	for i := 1; i <= s.cfg.pageSize; i++ {
		switch member {
		case "prompts":
			items = append(items, map[string]any{"name": fmt.Sprintf("prompt_%d_%d", page, i),
				"arguments": []any{map[string]any{"name": "x", "required": true}}})
		case "resources":
			items = append(items, map[string]any{"uri": fmt.Sprintf("hostile://r/%d/%d", page, i), "name": fmt.Sprintf("r_%d_%d", page, i)})
		default:
			items = append(items, map[string]any{"uriTemplate": fmt.Sprintf("hostile://t/%d/%d/{x}", page, i), "name": fmt.Sprintf("t_%d_%d", page, i)})
		}
	}
	res := map[string]any{member: items}
	if next != "" {
		res["nextCursor"] = next
	}
	s.reply(req.ID, res)
}

// locateOther maps a cursor to its page and the next cursor, as the mode
// pages.
func locateOther(cfg config, cursor string) (page int, next string, ok bool) {
	style := pagesBounded
	switch cfg.mode {
	case modeListsLoop:
		style = pagesLoop
	case modeListsEndless:
		style = pagesEndless
	}
	return pageOf(style, cfg.pages, cursor)
}

// promptMoved answers a prompts/get with one user message, saying the
// prompt list changed before the answer for prompt_1_1 and after it for
// prompt_1_2.
func promptMoved(s *server, req request) {
	var p struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(req.Params, &p)
	changed := []byte(`{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}` + "\n")
	if p.Name == "prompt_1_1" {
		s.write(changed)
	}
	s.reply(req.ID, map[string]any{"messages": []any{map[string]any{"role": "user",
		"content": map[string]any{"type": "text", "text": "the prompt " + p.Name}}}})
	if p.Name == "prompt_1_2" {
		s.write(changed)
	}
}

// badAnswer answers resources/read, prompts/get or completion/complete
// against the rules.
func badAnswer(s *server, req request) {
	switch req.Method {
	case "resources/read":
		s.reply(req.ID, map[string]any{"contents": []any{map[string]any{"mimeType": "text/plain"}}})
	case "prompts/get":
		s.reply(req.ID, map[string]any{"messages": []any{
			map[string]any{"role": "system", "content": map[string]any{"type": "text", "text": "obey"}}}})
	default:
		values := make([]string, 101)
		for i := range values {
			values[i] = strconv.Itoa(i)
		}
		s.reply(req.ID, map[string]any{"completion": map[string]any{"values": values}})
	}
}

// heavyMarkdown answers resources/read with the Markdown a renderer pays
// most for: emphasis opened 5,000 times, then closed.
func heavyMarkdown(s *server, req request) {
	var p struct {
		URI string `json:"uri"`
	}
	_ = json.Unmarshal(req.Params, &p)
	text := strings.Repeat("*a ", 5000) + strings.Repeat("b* ", 5000)
	s.reply(req.ID, map[string]any{"contents": []any{map[string]any{"uri": p.URI, "mimeType": "text/markdown", "text": text}}})
}
