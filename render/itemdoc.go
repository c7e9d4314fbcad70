package render

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/sanitize"
	"mcpwitness/themes"
)

// ItemListing is where an item of a list other than tools stands besides
// its own fields: whether its walk has ended, whether the list changed
// after it (stale), whether a resource is subscribed to and when the
// server last said it changed, and what Enter does to it ("" in a replay).
type ItemListing struct {
	Done, Stale bool
	Subscribed  bool
	Updated     time.Time
	Verb        string
}

// ItemDoc builds the document of a resource, template or prompt: its name
// and where it was listed, then, when there is one, the newest request
// about it (read or get) as [RequestDoc] draws it, then what it is and its
// definition. Prose wraps to w; JSON keeps its lines whole, for a view
// that scrolls sideways.
func ItemDoc(it *fold.Item, k ItemListing, req *fold.Request, w int, s *themes.Styles, loc *time.Location) []string {
	d := NewWideDoc(w, s)
	itemHead(d, it, k, s, loc)
	// The answer asked for comes first, where it shows without scrolling.
	if req != nil {
		d.Heading("Latest " + req.Method)
		for _, l := range RequestDoc(req, w-2, s, loc, nil) {
			d.Add("  " + l)
		}
		d.Heading("About")
	} else if k.Verb != "" {
		d.Text(s.Muted, "enter "+k.Verb, 0)
	}
	if it.Description != "" {
		d.Blank()
		d.Text(s.Text, it.Description, 0)
	}
	itemFields(d, it, s)
	d.Heading("Definition")
	d.JSON(it.Raw, 2)
	return d.Lines()
}

// itemHead says the item's name and where it was listed.
func itemHead(d *Doc, it *fold.Item, k ItemListing, s *themes.Styles, loc *time.Location) {
	name := it.Name
	if name == "" {
		name = it.Key
	}
	head := []Seg{{Text: name, Style: s.Bold}}
	if it.Title != "" && it.Title != it.Name {
		head = append(head, Seg{Text: "  " + it.Title, Style: s.Muted})
	}
	d.Segs(head, 4)
	where := fmt.Sprintf("walk #%d · page %d · gen %d", it.Walk, it.Page, it.Gen)
	if !k.Done {
		where += " · walk in progress"
	}
	d.Text(s.Muted, where, 0)
	if k.Stale {
		d.Text(s.BadgeStale, "stale: the server said this list changed after this walk", 0)
	}
	if k.Subscribed {
		d.Text(s.BadgeHeld, "subscribed: the server sends notifications/resources/updated when it changes", 0)
	}
	if !k.Updated.IsZero() {
		d.Text(s.BadgeStale, "the server said it changed at "+ClockMs(k.Updated, loc), 0)
	}
	unsafeText(d, it.Unsafe, s)
	if it.Bad != "" {
		d.Text(s.Fail, "✗ unreadable definition: "+it.Bad, 0)
	}
}

// itemFields lists a resource's uri, mimeType, size and annotations, a
// template's uriTemplate, a prompt's arguments.
func itemFields(d *Doc, it *fold.Item, s *themes.Styles) {
	d.Blank()
	field := func(name, value string) {
		if value != "" {
			d.Segs([]Seg{{Text: fmt.Sprintf("%-12s", name), Style: s.Muted}, {Text: value, Style: s.Text}}, 12)
		}
	}
	field("uri", it.URI)
	field("uriTemplate", it.URITemplate)
	field("mimeType", it.MIMEType)
	if it.Size != nil {
		field("size", fmt.Sprintf("%s (%d bytes)", Size(int(*it.Size)), *it.Size))
	}
	if it.Method == paging.Prompts().Name {
		if len(it.Arguments) == 0 {
			d.Text(s.Muted, "no arguments", 0)
		}
		for _, a := range it.Arguments {
			mark, style := "  ", s.Text
			if a.Required {
				mark, style = "* ", s.Bold
			}
			segs := []Seg{{Text: mark, Style: s.Warn}, {Text: sanitize.Line(a.Name), Style: style}}
			if a.Required {
				segs = append(segs, Seg{Text: " (required)", Style: s.Muted})
			}
			if a.Description != "" {
				segs = append(segs, Seg{Text: "  " + a.Description, Style: s.Muted})
			}
			d.Segs(segs, 4)
		}
	}
	if !IsNull(it.Annotations) {
		d.Heading("Annotations")
		d.JSON(it.Annotations, 2)
	}
}

// ShortMIME is a mimeType in a few letters, for a list row: its subtype
// without parameters ("markdown" for text/markdown; charset=utf-8), at
// most 12 cells.
func ShortMIME(mime string) string {
	_, sub, ok := strings.Cut(mime, "/")
	if !ok {
		sub = mime
	}
	sub, _, _ = strings.Cut(sub, ";")
	return Trunc(sanitize.Line(strings.TrimSpace(sub)), 12)
}

// ShortAnnotations is a resource's annotations in a few letters, for a
// list row: its audience and priority ("user p0.8"), "" when it has
// neither.
func ShortAnnotations(raw json.RawMessage) string {
	if IsNull(raw) {
		return ""
	}
	var a struct {
		Audience []string `json:"audience"`
		Priority *float64 `json:"priority"`
	}
	if json.Unmarshal(raw, &a) != nil {
		return ""
	}
	var parts []string
	if len(a.Audience) > 0 {
		parts = append(parts, sanitize.Line(strings.Join(a.Audience, "+")))
	}
	if a.Priority != nil {
		parts = append(parts, "p"+strconv.FormatFloat(*a.Priority, 'g', 2, 64))
	}
	return Trunc(strings.Join(parts, " "), 20)
}
