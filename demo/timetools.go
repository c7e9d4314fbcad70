package demo

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type zoneIn struct {
	Timezone string `json:"timezone,omitempty" jsonschema:"an IANA time zone such as Europe/Lisbon (default UTC)"`
}

type betweenIn struct {
	Start string `json:"start" jsonschema:"an RFC 3339 time such as 2025-03-01T09:00:00Z"`
	End   string `json:"end" jsonschema:"an RFC 3339 time"`
}

type unixIn struct {
	Seconds  float64 `json:"seconds" jsonschema:"seconds since 1970-01-01T00:00:00Z"`
	Timezone string  `json:"timezone,omitempty" jsonschema:"an IANA time zone (default UTC)"`
}

type addDurationIn struct {
	Time     string `json:"time,omitempty" jsonschema:"an RFC 3339 time (default now)"`
	Duration string `json:"duration" jsonschema:"a Go duration such as 90m, -2h30m or 36h"`
}

type noteIn struct {
	Text string `json:"text" jsonschema:"what to write down"`
}

// note is one entry of the notepad.
type note struct {
	ID   int    `json:"id"`
	Text string `json:"text"`
	At   string `json:"at" jsonschema:"when it was written, RFC 3339"`
}

type notesOut struct {
	Notes []note `json:"notes"`
}

func addTimeTools(s *mcp.Server) {
	simple(s, &mcp.Tool{
		Name:        "current_time",
		Description: "The current date and time in a time zone.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, func(in zoneIn) (string, error) {
		loc, err := zone(in.Timezone)
		if err != nil {
			return "", err
		}
		now := time.Now().In(loc)
		return fmt.Sprintf("%s (%s, %s)", now.Format(time.RFC3339), now.Weekday(), loc), nil
	})
	simple(s, &mcp.Tool{Name: "time_between", Description: "The time between two RFC 3339 times, in hours, minutes and days."},
		func(in betweenIn) (string, error) {
			a, err := time.Parse(time.RFC3339, in.Start)
			if err != nil {
				return "", fmt.Errorf("start: %v", err)
			}
			b, err := time.Parse(time.RFC3339, in.End)
			if err != nil {
				return "", fmt.Errorf("end: %v", err)
			}
			d := b.Sub(a)
			return fmt.Sprintf("%s (%.2f days)", d, d.Hours()/24), nil
		})
	simple(s, &mcp.Tool{Name: "unix_to_iso", Description: "Convert a Unix timestamp to an RFC 3339 date and time."},
		func(in unixIn) (string, error) {
			loc, err := zone(in.Timezone)
			if err != nil {
				return "", err
			}
			sec := int64(in.Seconds)
			t := time.Unix(sec, int64((in.Seconds-float64(sec))*1e9)).In(loc)
			return t.Format(time.RFC3339Nano), nil
		})
	simple(s, &mcp.Tool{Name: "add_duration", Description: "Add a duration (90m, -2h30m, 36h) to a time."},
		func(in addDurationIn) (string, error) {
			t := time.Now().UTC()
			if in.Time != "" {
				var err error
				if t, err = time.Parse(time.RFC3339, in.Time); err != nil {
					return "", fmt.Errorf("time: %v", err)
				}
			}
			d, err := time.ParseDuration(in.Duration)
			if err != nil {
				return "", fmt.Errorf("duration: %v", err)
			}
			return t.Add(d).Format(time.RFC3339), nil
		})
}

// zone loads an IANA time zone; "" is UTC.
func zone(name string) (*time.Location, error) {
	if name == "" {
		return time.UTC, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("unknown time zone %q (try Europe/Lisbon or America/New_York)", name)
	}
	return loc, nil
}

// addNoteTools adds a small notepad kept in the server's memory: one tool
// that writes (note_add), one that only reads (note_list) and one that
// destroys (notes_clear).
func addNoteTools(s *mcp.Server, st *state) {
	simple(s, &mcp.Tool{
		Name:        "note_add",
		Description: "Write a note on the server's notepad (kept in memory while the server runs).",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: new(false)},
	}, func(in noteIn) (string, error) {
		if strings.TrimSpace(in.Text) == "" {
			return "", fmt.Errorf("text is empty: write something")
		}
		defer notepadChanged(s) // after the unlock below
		st.mu.Lock()
		defer st.mu.Unlock()
		id := 1
		if n := len(st.notes); n > 0 {
			id = st.notes[n-1].ID + 1
		}
		st.notes = append(st.notes, note{ID: id, Text: in.Text, At: time.Now().UTC().Format(time.RFC3339)})
		return fmt.Sprintf("Saved note %d (%d on the notepad).", id, len(st.notes)), nil
	})
	mcp.AddTool(s, &mcp.Tool{
		Name:        "note_list",
		Title:       "List Notes",
		Description: "List the notes on the server's notepad, oldest first, as structuredContent.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
	}, func(context.Context, *mcp.CallToolRequest, any) (*mcp.CallToolResult, notesOut, error) {
		out := notesOut{Notes: st.notesCopy()}
		if len(out.Notes) == 0 {
			return text("The notepad is empty. Add a note with note_add."), out, nil
		}
		var b strings.Builder
		for _, n := range out.Notes {
			fmt.Fprintf(&b, "%d. %s (%s)\n", n.ID, n.Text, n.At)
		}
		return text("%s", strings.TrimSuffix(b.String(), "\n")), out, nil
	})
	simple(s, &mcp.Tool{
		Name:        "notes_clear",
		Description: "Erase every note on the server's notepad. Cannot be undone.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: new(true), IdempotentHint: true},
	}, func(any) (string, error) {
		defer notepadChanged(s) // after the unlock below
		st.mu.Lock()
		defer st.mu.Unlock()
		n := len(st.notes)
		st.notes = nil
		return fmt.Sprintf("Erased %d note(s).", n), nil
	})
}

// notesCopy returns a copy of the notepad, never nil.
func (st *state) notesCopy() []note {
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]note, len(st.notes))
	copy(out, st.notes)
	return out
}
