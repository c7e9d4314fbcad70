package paging_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"mcpwitness/paging"
)

// server is a tiny list server: answer maps the cursor of a request to the raw
// result it sends back, or an error. It records every cursor it was asked
// for.
type server struct {
	answer func(ctx context.Context, cursor string) (string, error)

	mu   sync.Mutex
	sent []string
}

// scripted returns a server that answers from a fixed table of cursors; an
// unknown cursor is an error, as a real server would answer it.
func scripted(pages map[string]string) *server {
	return &server{answer: func(_ context.Context, cursor string) (string, error) {
		raw, ok := pages[cursor]
		if !ok {
			return "", fmt.Errorf("invalid cursor %q", cursor)
		}
		return raw, nil
	}}
}

// endless returns a server whose every page names a new cursor.
func endless() *server {
	return &server{answer: func(_ context.Context, cursor string) (string, error) {
		n := 0
		if cursor != "" {
			n, _ = strconv.Atoi(strings.TrimPrefix(cursor, "c"))
		}
		return page("tools", []string{"t" + strconv.Itoa(n)}, "c"+strconv.Itoa(n+1)), nil
	}}
}

// fetch is the server's [paging.Fetcher].
func (s *server) fetch(ctx context.Context, cursor string) (*paging.Answer, error) {
	s.mu.Lock()
	s.sent = append(s.sent, cursor)
	id := len(s.sent)
	s.mu.Unlock()
	raw, err := s.answer(ctx, cursor)
	if err != nil {
		return nil, err
	}
	return &paging.Answer{Result: json.RawMessage(raw), RequestID: strconv.Itoa(id)}, nil
}

// cursors returns the cursors the server was asked for, in order.
func (s *server) cursors() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string{}, s.sent...)
}

// page builds a raw list result with items named by names under field and,
// unless next is "", a nextCursor.
func page(field string, names []string, next string) string {
	items := make([]map[string]string, len(names))
	for i, n := range names {
		items[i] = map[string]string{"name": n}
	}
	res := map[string]any{field: items}
	if next != "" {
		res["nextCursor"] = next
	}
	b, err := json.Marshal(res)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// names returns the "name" of every item of r, in order.
func names(r *paging.Result) []string {
	var out []string
	for _, raw := range r.Items() {
		var item struct{ Name string }
		if err := json.Unmarshal(raw, &item); err != nil {
			out = append(out, "!"+string(raw))
			continue
		}
		out = append(out, item.Name)
	}
	return out
}

// checks returns the Check of every finding of r, in order.
func checks(r *paging.Result) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, f.Check)
	}
	return out
}

// counts returns the Count of every page of r.
func counts(r *paging.Result) []int {
	var out []int
	for _, p := range r.Pages {
		out = append(out, p.Count)
	}
	return out
}
