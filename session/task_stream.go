package session

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"mcpwitness/record"
)

// answerStream reads body, the event stream of one of the session's own
// requests on Streamable HTTP (the tap has recorded and routed each
// event), to its end, and answers each request the server sends on it: a
// server asks what a task waits on (elicitation, sampling) on the stream
// of tasks/result, which the SDK never reads. The answers go through the
// session's own handlers ([Session.AnswerInput]) and are posted back.
func (s *Session) answerStream(ctx context.Context, body io.Reader) {
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 0, 64<<10), int(min(s.limit.max+1<<10, 1<<30)))
	var data []byte
	flush := func() {
		if len(data) > 0 {
			s.answerStreamed(ctx, data)
			data = nil
		}
	}
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			flush()
		case bytes.HasPrefix(line, []byte("data:")):
			d := bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, d...)
		}
	}
	flush()
}

// answerStreamed answers data, one message of such a stream, when it is a
// request.
func (s *Session) answerStreamed(ctx context.Context, data []byte) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(data, &m) != nil || m.Method == "" || canonicalID(m.ID) == "" {
		return
	}
	var raw any
	if json.Unmarshal(m.ID, &raw) != nil {
		return
	}
	id, err := jsonrpc.MakeID(raw)
	if err != nil {
		return
	}
	go func() {
		resp := &jsonrpc.Response{ID: id}
		switch m.Method {
		case "ping":
			resp.Result = json.RawMessage("{}")
		case MethodSampling, MethodElicit:
			res, err := s.AnswerInput(ctx, m.Method, m.Params)
			var rpcErr *jsonrpc.Error
			switch {
			case errors.As(err, &rpcErr):
				resp.Error = rpcErr
			case err != nil:
				resp.Error = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: s.redact(err).Error()}
			default:
				resp.Result = res
			}
		default:
			resp.Error = &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "mcpwitness does not answer " + m.Method + " on a task's stream"}
		}
		if _, err := s.post(context.WithoutCancel(ctx), resp); err != nil {
			s.log.Append(record.Event{Kind: record.KindError, Method: m.Method, Text: "answering " + m.Method + " on a task's stream failed: " + s.redact(err).Error()})
		}
	}()
}
