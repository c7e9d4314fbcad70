package main

// The optional theme: servers that leave out what they may leave out, or
// say less than they should.
//
//	no-templates       normal, but resources/templates/list is answered
//	                   with -32601 (method not found), as servers that
//	                   offer resources and no templates do; resources/list
//	                   answers one resource, hostile://only.
//	list-changed-once  normal, but during the first tools/list walk only,
//	                   notifications/tools/list_changed is sent before the
//	                   answer to the last page: a second walk holds still.
//	chatty-init        writes two lines of text to stdout ("Server starting
//	                   on stdio…", "listening") and never answers
//	                   initialize; exits 0 on stdin EOF.

import (
	"encoding/json"
	"sync/atomic"
)

// optionalTheme holds the modes of this file. Its state (how many tools
// walks list-changed-once has seen) lives in the returned value.
func optionalTheme() theme {
	var walks atomic.Int64
	return theme{
		modes: []string{"no-templates", "list-changed-once", "chatty-init"},
		start: func(s *server) bool {
			if s.cfg.mode == "chatty-init" {
				s.write([]byte("Server starting on stdio...\nlistening\n"))
			}
			return false
		},
		handle: func(s *server, req request) bool { return handleOptional(s, req, &walks) },
	}
}

// handleOptional answers what the optional modes change; walks counts the
// tools walks begun.
func handleOptional(s *server, req request, walks *atomic.Int64) bool {
	switch {
	case len(req.ID) == 0:
		return false
	case s.cfg.mode == "chatty-init" && req.Method == "initialize":
		return true
	case s.cfg.mode == "no-templates" && req.Method == "resources/templates/list":
		s.fail(req.ID, codeMethodNotFound, "Method not found")
		return true
	case s.cfg.mode == "no-templates" && req.Method == "resources/list":
		s.reply(req.ID, map[string]any{"resources": []any{map[string]any{"uri": "hostile://only", "name": "only"}}})
		return true
	case s.cfg.mode == "list-changed-once" && req.Method == "tools/list":
		var p struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(req.Params, &p)
		n := walks.Load()
		if p.Cursor == "" {
			n = walks.Add(1)
		}
		if _, next, ok := s.locate(p.Cursor); ok && next == "" && n == 1 {
			s.toolsChanged()
		}
		s.listTools(req)
		return true
	}
	return false
}
