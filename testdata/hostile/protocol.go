package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

// The modes of this file: answers that break the JSON-RPC protocol, schemas
// nested too deep, and requests of the server's own.
//
//	stray-answers    normal, but before each tools/list and tools/call answer
//	                 it writes four answers that match no request in flight:
//	                 an error with "id": null, a result whose id is the real
//	                 id plus 0.5 (holding a tool "wrong" or the text "wrong"),
//	                 a result for id 424242, never used, and a bare {}.
//	deep-schema      normal, and page 1 also lists the tool "deep", whose
//	                 outputSchema nests "properties" HOSTILE_DEPTH levels deep
//	                 (environment variable, default 10000). A call of "deep"
//	                 answers structuredContent {}.
//	server-requests  one page with the tools "capabilities" (answers the
//	                 capabilities the client declared at initialize, as JSON
//	                 text) and "ask" (sends the request named by
//	                 arguments.method — roots/list, sampling/createMessage or
//	                 elicitation/create — to the client, waits for its answer
//	                 and answers the call with that raw answer as text), and
//	                 "flood" (sends arguments.method to the client
//	                 arguments.count times at once and answers the call as
//	                 soon as they are out).
//	hang-setlevel    normal, declares logging, and never answers
//	                 logging/setLevel (keeps reading stdin).
//	answer-on-cancel normal list; a tools/call is held until the client
//	                 cancels it (notifications/cancelled), and then answered
//	                 all the same, with the text "answered after the
//	                 cancellation".
const (
	modeStrayAnswers   = "stray-answers"
	modeDeepSchema     = "deep-schema"
	modeServerRequests = "server-requests"
	modeAnswerOnCancel = "answer-on-cancel"
	modeHangSetLevel   = "hang-setlevel"
)

// protocolTheme holds the modes of this file.
func protocolTheme() theme {
	p := &protocolState{waiting: map[string]chan json.RawMessage{}}
	return theme{
		modes:  []string{modeStrayAnswers, modeDeepSchema, modeServerRequests, modeAnswerOnCancel, modeHangSetLevel},
		start:  p.start,
		handle: p.handle,
	}
}

// protocolState is what the modes of this file remember between requests.
type protocolState struct {
	mu      sync.Mutex
	caps    json.RawMessage                 // the client's declared capabilities
	next    int                             // the last id of a request we sent
	waiting map[string]chan json.RawMessage // our request id → where its answer goes
}

// start takes over reading in server-requests mode, so that the client's
// answers to our own requests reach us (the base loop drops them).
func (p *protocolState) start(s *server) bool {
	if s.cfg.mode != modeServerRequests {
		return false
	}
	r := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		if line = bytes.TrimSpace(line); len(line) > 0 && !p.answer(line) {
			s.handle(line)
		}
		if err != nil {
			return true
		}
	}
}

// answer routes a client's answer to the request waiting for it.
func (p *protocolState) answer(line []byte) bool {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(line, &m) != nil || m.Method != "" || len(m.ID) == 0 {
		return false
	}
	p.mu.Lock()
	ch := p.waiting[string(m.ID)]
	delete(p.waiting, string(m.ID))
	p.mu.Unlock()
	if ch != nil {
		ch <- append(json.RawMessage(nil), line...)
	}
	return ch != nil
}

func (p *protocolState) handle(s *server, req request) bool {
	switch s.cfg.mode {
	case modeStrayAnswers:
		if req.Method == "tools/list" || req.Method == "tools/call" {
			strays(s, req)
		}
		return false
	case modeDeepSchema:
		return p.deep(s, req)
	case modeServerRequests:
		return p.serverRequests(s, req)
	case modeAnswerOnCancel:
		return answerOnCancel(s, req)
	case modeHangSetLevel:
		return hangSetLevel(s, req)
	}
	return false
}

// hangSetLevel declares logging at initialize and holds logging/setLevel
// for good.
func hangSetLevel(s *server, req request) bool {
	switch req.Method {
	case "initialize":
		res := s.initialize(req.Params).(map[string]any)
		res["capabilities"].(map[string]any)["logging"] = map[string]any{}
		s.reply(req.ID, res)
		return true
	case "logging/setLevel":
		return true
	}
	return false
}

// answerOnCancel holds every tools/call and answers it only once the client
// has cancelled it.
func answerOnCancel(s *server, req request) bool {
	switch req.Method {
	case "tools/call":
		return true
	case "notifications/cancelled":
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &p) == nil && len(p.RequestID) > 0 {
			s.reply(p.RequestID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "answered after the cancellation"}}})
		}
		return true
	}
	return false
}

// strays writes answers that match no request in flight.
func strays(s *server, req request) {
	s.write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"stray: no id"}}` + "\n"))
	wrong := `{"tools":[{"name":"wrong","inputSchema":{"type":"object"}}]}`
	if req.Method == "tools/call" {
		wrong = `{"content":[{"type":"text","text":"wrong"}]}`
	}
	if n, err := strconv.ParseInt(string(req.ID), 10, 64); err == nil {
		s.write([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d.5,"result":%s}`+"\n", n, wrong)))
	}
	s.write([]byte(`{"jsonrpc":"2.0","id":424242,"result":` + wrong + "}\n"))
	s.write([]byte("{}\n"))
}

// deep adds the tool "deep" to page 1 and answers its calls.
func (p *protocolState) deep(s *server, req request) bool {
	switch req.Method {
	case "tools/list":
		var params struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(req.Params, &params)
		page, next, ok := s.locate(params.Cursor)
		if !ok || page != 1 {
			return false
		}
		depth := 10000
		if d, err := strconv.Atoi(os.Getenv("HOSTILE_DEPTH")); err == nil && d > 0 {
			depth = d
		}
		tools, _ := json.Marshal(s.pageTools(1))
		var b strings.Builder
		b.WriteString(`{"jsonrpc":"2.0","id":`)
		b.Write(req.ID)
		b.WriteString(`,"result":{"tools":[`)
		b.Write(tools[1 : len(tools)-1])
		b.WriteString(`,{"name":"deep","description":"Its outputSchema is nested very deep.","inputSchema":{"type":"object"},"outputSchema":`)
		b.WriteString(strings.Repeat(`{"type":"object","properties":{"a":`, depth))
		b.WriteString(`{"type":"object"}`)
		b.WriteString(strings.Repeat(`}}`, depth))
		b.WriteString(`}]`)
		if next != "" {
			b.WriteString(`,"nextCursor":"` + next + `"`)
		}
		b.WriteString("}}\n")
		s.write([]byte(b.String()))
		return true
	case "tools/call":
		var params struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(req.Params, &params)
		if params.Name != "deep" {
			return false
		}
		s.reply(req.ID, callResult{Content: []content{{"text", "{}"}}, StructuredContent: map[string]any{}})
		return true
	}
	return false
}

// serverRequests lists and answers the tools of server-requests mode.
func (p *protocolState) serverRequests(s *server, req request) bool {
	switch req.Method {
	case "initialize":
		var params struct {
			Capabilities json.RawMessage `json:"capabilities"`
		}
		_ = json.Unmarshal(req.Params, &params)
		p.mu.Lock()
		p.caps = params.Capabilities
		p.mu.Unlock()
		return false
	case "tools/list":
		s.reply(req.ID, listResult{Tools: []tool{
			{Name: "capabilities", Description: "Answers the capabilities the client declared.", InputSchema: map[string]any{"type": "object"}},
			{Name: "ask", Description: "Sends the request named by arguments.method to the client and answers its answer.",
				InputSchema: map[string]any{"type": "object", "properties": map[string]any{"method": map[string]any{"type": "string"}}}},
			{Name: "flood", Description: "Sends the request named by arguments.method to the client arguments.count times at once, and answers when they are out.",
				InputSchema: map[string]any{"type": "object", "properties": map[string]any{"method": map[string]any{"type": "string"}, "count": map[string]any{"type": "integer"}}}},
		}})
		return true
	case "tools/call":
		var params struct {
			Name      string `json:"name"`
			Arguments struct {
				Method string `json:"method"`
				Count  int    `json:"count"`
			} `json:"arguments"`
		}
		_ = json.Unmarshal(req.Params, &params)
		switch params.Name {
		case "capabilities":
			p.mu.Lock()
			caps := string(p.caps)
			p.mu.Unlock()
			s.reply(req.ID, callResult{Content: []content{{"text", caps}}})
		case "ask":
			go p.ask(s, req.ID, params.Arguments.Method)
		case "flood":
			go p.flood(s, req.ID, params.Arguments.Method, params.Arguments.Count)
		default:
			s.fail(req.ID, codeInvalidParams, "unknown tool: "+params.Name)
		}
		return true
	}
	return false
}

// ask sends method to the client and answers call id with its raw answer.
func (p *protocolState) ask(s *server, id json.RawMessage, method string) {
	ch := p.send(s, method)
	s.reply(id, callResult{Content: []content{{"text", string(<-ch)}}})
}

// flood sends method to the client count times at once and answers call
// id as soon as they are out; the client's answers are read and dropped.
func (p *protocolState) flood(s *server, id json.RawMessage, method string, count int) {
	for range count {
		p.send(s, method)
	}
	s.reply(id, callResult{Content: []content{{"text", fmt.Sprintf("sent %d %s requests", count, method)}}})
}

// send sends method to the client (with params that ask for nothing odd)
// and returns where its answer will come.
func (p *protocolState) send(s *server, method string) chan json.RawMessage {
	params := map[string]any{}
	switch method {
	case "sampling/createMessage":
		params = map[string]any{"maxTokens": 5, "messages": []any{
			map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": "hi"}}}}
	case "elicitation/create":
		params = map[string]any{"message": "Your name?", "requestedSchema": map[string]any{
			"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}}
	}
	ch := make(chan json.RawMessage, 1)
	p.mu.Lock()
	p.next++
	reqID := fmt.Sprintf(`"hostile-%d"`, p.next)
	p.waiting[reqID] = ch
	p.mu.Unlock()
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(reqID), "method": method, "params": params})
	s.write(append(b, '\n'))
	return ch
}
