package record

import (
	"bytes"
	"encoding/json"
	"slices"

	"mcpwitness/paging"
)

// Event returns ev with every secret r knows masked in each of its fields:
// raw frames, items and data as JSON (string contents only), text plainly.
// Size keeps the raw frame's length. ev is returned as is when r knows no
// secret; fields that held none are shared, not copied.
func (r *Redactor) Event(ev Event) Event {
	m := r.masker()
	if m == nil {
		return ev
	}
	ev.Frame = m.raw(ev.Frame)
	ev.Data = m.raw(ev.Data)
	ev.Items = m.raws(ev.Items)
	ev.Text = m.text(ev.Text)
	ev.Method, ev.ID = m.text(ev.Method), m.text(ev.ID)
	ev.Page = m.page(ev.Page)
	ev.Server = maskVia(m, ev.Server)
	ev.Walk = maskVia(m, ev.Walk)
	ev.Call = maskVia(m, ev.Call)
	ev.Verdict = maskVia(m, ev.Verdict)
	ev.Progress = maskVia(m, ev.Progress)
	ev.Request = maskVia(m, ev.Request)
	ev.HTTP = maskVia(m, ev.HTTP)
	ev.Auth = maskVia(m, ev.Auth)
	ev.Restart = maskVia(m, ev.Restart)
	ev.Task = maskVia(m, ev.Task)
	ev.Finding = maskVia(m, ev.Finding)
	ev.Target = maskVia(m, ev.Target)
	return ev
}

// raw masks one JSON value.
func (m *masker) raw(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return b
	}
	return m.json(b)
}

// raws masks each JSON value, copying the slice only when one changed.
func (m *masker) raws(items []json.RawMessage) []json.RawMessage {
	var out []json.RawMessage
	for i, it := range items {
		masked := m.raw(it)
		if out == nil && !bytes.Equal(masked, it) {
			out = slices.Clone(items)
		}
		if out != nil {
			out[i] = masked
		}
	}
	if out == nil {
		return items
	}
	return out
}

// page masks a page's items, keys and cursors; its other fields are
// numbers. The page is copied only when something changed.
func (m *masker) page(p *paging.Page) *paging.Page {
	if p == nil {
		return nil
	}
	q := *p
	q.Items = m.raws(p.Items)
	q.Cursor, q.NextCursor = m.text(p.Cursor), m.text(p.NextCursor)
	if p.Keys != nil {
		q.Keys = make([]string, len(p.Keys))
		for i, k := range p.Keys {
			q.Keys[i] = m.text(k)
		}
	}
	return &q
}

// maskVia masks the fields of *p through its JSON form: p itself when no
// secret was in it, else a new value decoded from the masked JSON.
func maskVia[T any](m *masker, p *T) *T {
	if p == nil {
		return nil
	}
	b, err := json.Marshal(p)
	if err != nil {
		return p
	}
	out := m.json(b)
	if bytes.Equal(out, b) {
		return p
	}
	q := new(T)
	if err := json.Unmarshal(out, q); err != nil {
		return p
	}
	return q
}
