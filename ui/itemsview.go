package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/render"
	"mcpwitness/sanitize"
)

// View renders the title and the visible rows only, or returns them as
// Predraw drew them when nothing they show changed since.
func (p *itemsPane) View() string {
	if p.drawn.text != "" && p.sameDrawn() {
		return p.drawn.text
	}
	return p.draw()
}

// draw renders the title and the visible rows.
func (p *itemsPane) draw() string {
	return p.DrawList(p.title(), p.ListHeight(), p.w, p.emptyLine, p.separator,
		func(r itemRow, cur bool) string { return p.itemLine(r.item, cur) })
}

func (p *itemsPane) emptyLine() string { return " " + p.Sty.Muted.Render(p.emptyText()) }

// noun is what the list holds, one and many.
func (p *itemsPane) noun() (one, many string) {
	t, _ := tabOf(p.method)
	return t.nouns()
}

func (p *itemsPane) emptyText() string {
	w := p.St.Latest(p.method)
	_, many := p.noun()
	switch {
	case p.Query != "":
		return "nothing matches " + sanitize.Line(p.Query)
	case p.own:
		return "no task yet: a call the server makes a task shows here"
	case w == nil:
		return "no walk yet"
	case !w.Done:
		return "waiting for page 1…"
	case w.Err != "":
		return "no " + many + ": " + sanitize.Line(w.Err)
	}
	return "the server listed no " + many
}

// title is the list's walk, its state and the filter.
func (p *itemsPane) title() string {
	s := p.Sty
	count := fmt.Sprint(p.Count())
	if p.hits != nil {
		count = fmt.Sprintf("%d of %d", p.count, p.Count())
	}
	t, _ := tabOf(p.method)
	name, _ := t.name()
	right := ""
	if p.own {
		// Not a server listing: the tasks of this session's own calls.
		name, right = "This session's tasks", s.Subtle.Render("no tasks/list")
	}
	left := p.TitleStyle(p.focused).Render(name) + " " + s.Muted.Render(count)
	if w := p.built.walk; w != nil {
		right = s.Subtle.Render(fmt.Sprintf("walk #%d", w.ID))
		if w.Done && w.Incomplete.Finding() {
			right = s.Warn.Render("⚠ "+string(w.Incomplete)) + " " + right
		}
	}
	return p.TitleLine(left, right, p.w)
}

func (p *itemsPane) separator(r itemRow) string {
	one, many := p.noun()
	shown := -1
	if p.hits != nil {
		shown = r.hits
	}
	return p.pt.PageLine(r.page, shown, one, many, p.w, p.Sty.Separator)
}

// badge is one badge of a row: its text and its drawing.
type badge struct{ text, drawn string }

// badges returns an item's badges, most important first: bad, hidden
// text, subscribed,
// updated since it was last read, stale, its size or arguments, its
// mimeType's subtype, its annotations in short.
func (p *itemsPane) badges(it *fold.Item) []badge {
	var parts []badge
	add := func(text, drawn string) { parts = append(parts, badge{text, drawn}) }
	if it.Bad != "" {
		add("bad", p.pt.Badge["bad"])
	}
	if len(it.Unsafe) > 0 {
		add("hidden", p.pt.Badge["hidden"])
	}
	if it.Method == paging.Tasks().Name {
		parts = append(parts, p.taskBadges(it)...)
	}
	if it.URI != "" && p.Subscribed(it.URI) {
		add("sub", p.pt.Badge["sub"])
	}
	if it.URI != "" && p.updatedSinceRead(it.URI) {
		add("upd", p.pt.Badge["upd"])
	}
	if p.built.walk != nil && p.built.walk.Stale() {
		add("stale", p.pt.Badge["stale"])
	}
	if it.Size != nil {
		sz := render.Size(int(*it.Size))
		add(sz, p.muted.On(sz))
	}
	if it.Method == paging.Prompts().Name && len(it.Arguments) > 0 {
		n := fmt.Sprintf("%d %s", len(it.Arguments), render.Plural(len(it.Arguments), "arg", "args"))
		add(n, p.muted.On(n))
	}
	if m := render.ShortMIME(it.MIMEType); m != "" && it.MIMEType != "text/plain" { // plain text is the common case: no news
		add(m, p.subtle.On(m))
	}
	if a := render.ShortAnnotations(it.Annotations); a != "" {
		add(a, p.subtle.On(a))
	}
	return parts
}

// fitBadges keeps the badges that leave at least minName cells of a row
// of width w for the name, dropping the least important first; it returns
// them drawn and their width.
func fitBadges(bs []badge, w, minName int) (string, int) {
	width := func(bs []badge) int {
		n := 0
		for _, b := range bs {
			n += ansi.StringWidth(b.text) + 1
		}
		return max(n-1, 0)
	}
	for len(bs) > 0 && w-width(bs)-5 < minName {
		bs = bs[:len(bs)-1]
	}
	drawn := make([]string, len(bs))
	for i, b := range bs {
		drawn[i] = b.drawn
	}
	return strings.Join(drawn, " "), width(bs)
}

// updatedSinceRead says whether the server said uri changed after it was
// last read (or it was never read).
func (p *itemsPane) updatedSinceRead(uri string) bool {
	t, ok := p.St.Updated(uri)
	if !ok {
		return false
	}
	return t.After(lastRead(p.St, uri))
}

// lastRead is when uri was last read (the zero time if never).
func lastRead(st *fold.State, uri string) time.Time {
	reqs := st.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if r := reqs[i]; r.Method == record.MethodRead && r.About == uri && r.Done {
			return r.Start
		}
	}
	return time.Time{}
}

// itemLine draws one item row, exactly p.w cells wide: its name, then
// its uri or template muted, then its badges.
func (p *itemsPane) itemLine(it *fold.Item, selected bool) string {
	minName := 20
	if it.Method == paging.Tasks().Name {
		// A task's status and call say more than the rest of its id.
		minName = 12
	}
	badges, bw := fitBadges(p.badges(it), p.w, minName)
	nameW := p.w - bw - 5
	label := it.Name
	if label == "" {
		label = it.Key
	}
	name := render.Trunc(sanitize.Line(label), nameW)
	rest := ""
	if extra := it.URI + it.URITemplate; extra != "" && extra != label {
		if room := nameW - ansi.StringWidth(name) - 2; room >= 6 {
			rest = render.Trunc(sanitize.Line(extra), room)
		}
	}
	used := ansi.StringWidth(name)
	if rest != "" {
		used += 2 + ansi.StringWidth(rest)
	}
	pad := strings.Repeat(" ", nameW-used)
	if selected {
		text := name
		if rest != "" {
			text += "  " + rest
		}
		return p.pt.SelectedLine(text+pad, badges, p.focused, p.Sty.Mono)
	}
	styled := p.pt.Text.On(name)
	if h := p.hits[it]; len(h.Pos) > 0 {
		styled = render.Highlight(name, h.Pos, p.Sty.Text, p.Sty.Match)
	}
	if rest != "" {
		styled += "  " + p.muted.On(rest)
	}
	return "  " + styled + pad + "  " + badges + " "
}
