package fold

import (
	"mcpwitness/record"
)

// exchangeLookBack is how many frames back an HTTP exchange looks for the
// frame it carried, and an answer for its request: they are the newest
// but for what other requests sent meanwhile.
const exchangeLookBack = 64

// applyHTTP adds the row of an HTTP event and puts an exchange beside the
// frame its POST carried: the newest sent frame with its JSON-RPC id that
// no exchange has yet or, for a POST without an id (a notification, or a
// record written before exchanges named their id), the newest sent frame
// if it has no id either.
func (s *State) applyHTTP(ev record.Event) {
	s.row(&Row{T: ev.T, Kind: RowOther, Method: string(ev.Kind), Text: ev.Text})
	h := ev.HTTP
	if h == nil || h.Step != record.HTTPExchange || h.Method != "POST" {
		return
	}
	last := s.wire.Total() - 1
	for n := last; n >= max(s.wire.First(), last-exchangeLookBack+1); n-- {
		f := s.wire.Abs(n)
		if f.Dir != record.Send {
			continue
		}
		if f.HTTP != nil || f.ID != h.RequestID {
			if h.RequestID == "" {
				return
			}
			continue
		}
		c := *f
		c.HTTP = h
		s.wire.set(n, &c)
		return
	}
}

// exchangeOf is the HTTP exchange of the request a frame with id and
// method answers: the newest sent frame of that id and method, if an
// exchange carried it; nil for none (a request of the server's own), or on
// a transport other than HTTP.
func (s *State) exchangeOf(id, method string) *record.HTTPInfo {
	if id == "" {
		return nil
	}
	last := s.wire.Total() - 1
	for n := last; n >= max(s.wire.First(), last-exchangeLookBack+1); n-- {
		if f := s.wire.Abs(n); f.Dir == record.Send && f.ID == id {
			if f.Method != method {
				return nil
			}
			return f.HTTP
		}
	}
	return nil
}
