package fold

import (
	"encoding/json"

	"mcpwitness/paging"
)

// Caps is what a server declared it offers at initialize, as far as a
// client acts on it: which lists it has, and what it accepts besides.
type Caps struct {
	Tools, Resources, Prompts bool
	// Subscribe: resources.subscribe is true.
	Subscribe bool
	// Completions: completion/complete is offered.
	Completions bool
	// Logging: the server logs (logging/setLevel on older protocols).
	Logging bool
	// ToolsChanged, ResourcesChanged and PromptsChanged: the list
	// declares listChanged.
	ToolsChanged, ResourcesChanged, PromptsChanged bool
}

// ReadCaps reads the server's capabilities as the initialize answer gave
// them (raw); what it cannot read it leaves false.
func ReadCaps(raw json.RawMessage) Caps {
	var c struct {
		Tools, Resources, Prompts *struct {
			ListChanged bool `json:"listChanged"`
			Subscribe   bool `json:"subscribe"`
		}
		Completions, Logging json.RawMessage
	}
	_ = json.Unmarshal(raw, &c)
	caps := Caps{Tools: c.Tools != nil, Resources: c.Resources != nil, Prompts: c.Prompts != nil,
		Completions: len(c.Completions) > 0 && string(c.Completions) != "null",
		Logging:     len(c.Logging) > 0 && string(c.Logging) != "null"}
	if c.Tools != nil {
		caps.ToolsChanged = c.Tools.ListChanged
	}
	if c.Resources != nil {
		caps.Subscribe, caps.ResourcesChanged = c.Resources.Subscribe, c.Resources.ListChanged
	}
	if c.Prompts != nil {
		caps.PromptsChanged = c.Prompts.ListChanged
	}
	return caps
}

// Lists returns the lists the server offers, in the order a client shows
// them: tools (always: a server that declares nothing may still answer),
// resources and their templates, prompts.
func (c Caps) Lists() []paging.Method {
	out := []paging.Method{paging.Tools()}
	if c.Resources {
		out = append(out, paging.Resources(), paging.ResourceTemplates())
	}
	if c.Prompts {
		out = append(out, paging.Prompts())
	}
	return out
}

// ListChangedOf returns the list method whose notifications/…/list_changed
// method is, or "" for any other method.
func ListChangedOf(method string) string {
	switch method {
	case ToolsListChanged:
		return paging.Tools().Name
	case "notifications/resources/list_changed":
		return paging.Resources().Name
	case "notifications/prompts/list_changed":
		return paging.Prompts().Name
	}
	return ""
}

// markChanged marks the walks of the list a list_changed other than tools'
// names (resources with their templates, or prompts) as changed: what they
// listed may be stale (see [Walk.Stale]).
func (s *State) markChanged(method string) {
	list := ListChangedOf(method)
	if list == "" || list == paging.Tools().Name {
		return
	}
	for _, w := range s.walks {
		if !w.Changed && (w.Method == list || list == paging.Resources().Name && w.Method == paging.ResourceTemplates().Name) {
			s.ownWalk(w).Changed = true
		}
	}
}
