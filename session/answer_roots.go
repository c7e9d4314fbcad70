//lint:file-ignore SA1019 servers on protocols before 2026-07-28 still ask for roots and sampling; a person or a flag answers them

package session

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcpwitness/record"
)

// rootURI is the URI of a root given as a path or a URI.
func rootURI(r string) string {
	if strings.Contains(r, "://") {
		return r
	}
	return "file://" + r
}

// Roots returns the roots answered to roots/list, as URIs.
func (s *Session) Roots() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.roots)
}

// SetRoots replaces the roots answered to roots/list with roots (paths or
// URIs; a relative path is made absolute). When they differ from before,
// the SDK sends notifications/roots/list_changed, and an event says so.
func (s *Session) SetRoots(roots []string) error {
	uris := make([]string, 0, len(roots))
	for _, r := range roots {
		r = strings.TrimSpace(r)
		if r == "" {
			continue
		}
		if !strings.Contains(r, "://") {
			abs, err := filepath.Abs(r)
			if err != nil {
				return fmt.Errorf("root %q: %w", r, err)
			}
			r = abs
		}
		if u := rootURI(r); !slices.Contains(uris, u) {
			uris = append(uris, u)
		}
	}
	s.mu.Lock()
	old := s.roots
	s.roots = uris
	s.mu.Unlock()
	var gone []string
	for _, u := range old {
		if !slices.Contains(uris, u) {
			gone = append(gone, u)
		}
	}
	var added []*mcp.Root
	for _, u := range uris {
		if !slices.Contains(old, u) {
			added = append(added, &mcp.Root{URI: u})
		}
	}
	if len(gone) == 0 && len(added) == 0 {
		return nil
	}
	// Each of these sends notifications/roots/list_changed to the server.
	s.client.RemoveRoots(gone...)
	s.client.AddRoots(added...)
	data, _ := json.Marshal(uris)
	s.log.Append(record.Event{Kind: record.KindServerCall, Method: MethodRootsChange, Data: data,
		Text: fmt.Sprintf("roots changed (%d added, %d removed); the server was told", len(added), len(gone))})
	return nil
}

// withTools is a sampling answer as the SDK's handler with tools returns it.
func withTools(res mcp.Result) (*mcp.CreateMessageWithToolsResult, error) {
	b, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	var out mcp.CreateMessageWithToolsResult
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
