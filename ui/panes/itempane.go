package panes

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/render"
	"mcpwitness/sanitize"
	"mcpwitness/session"
	"mcpwitness/themes"
)

// ItemKey is what an item's document was built from.
type ItemKey struct {
	Item    *fold.Item
	Req     *fold.Request
	Width   int
	sty     *themes.Styles
	listing render.ItemListing
	// task is what the fold knows of the task a Tasks item names (nil for
	// other items): a new one whenever its status changes; callDone says
	// whether the call that made it has ended (its answer is shown).
	task     *fold.Task
	callDone bool
}

// BigItemDoc is the size of what an item's document shows from the
// server (its definition and the newest answer about it) past which the
// document is built in a command instead of in Update. It is smaller
// than the tool detail's [bigDoc]: an answer may be Markdown, which costs
// some 1 ms per KiB to draw, and much more when a server nests emphasis.
const BigItemDoc = 8 << 10

// ItemBuiltMsg carries an item's document built in a command.
type ItemBuiltMsg struct {
	Key    ItemKey
	Lines  []string
	Widest int
}

// ItemPane shows the selected resource, template or prompt: what it is,
// where it was listed, and the newest request about it (a read or a get)
// with its verdicts and answer.
type ItemPane struct {
	*Common
	keys *ItemKeyMap
	w, h int

	focused  bool
	it       *fold.Item
	subbed   bool
	readOnly bool
	// tmpl is it's uriTemplate read, for a template (nil otherwise or when
	// it is not one).
	tmpl *fold.Template

	Sc Scroller
	// builds are the keys of the document shown and of one being built
	// in a command (see [BigItemDoc]).
	Builds Builds[ItemKey]
	// latest is the newest request about the item, worked out when the
	// item or the newest request changed (latestFor).
	latest    *fold.Request
	latestFor LatestKey
}

// LatestKey is what [ItemPane.latest] was worked out for: the item and
// the fold's list of requests, which it replaces (a new array) whenever a
// request is added or changes.
type LatestKey struct {
	Item *fold.Item
	reqs **fold.Request
	n    int
}

func NewItemPane(c *Common, keys *ItemKeyMap) ItemPane {
	return ItemPane{Common: c, keys: keys}
}

// SetSize sizes the pane: a title row, then the document.
func (p *ItemPane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.Sc.SetSize(w, h-1)
}

// Focus gives the pane the keys, or takes them.
func (p *ItemPane) Focus(on bool) { p.focused = on }

// Show shows it (nil for nothing); subscribed says whether it is a
// resource subscribed to.
func (p *ItemPane) Show(it *fold.Item, subscribed bool) {
	if it != p.it && (it == nil || p.it == nil || it.Key != p.it.Key) {
		p.Sc.Home()
		p.tmpl = nil
		if it != nil && it.URITemplate != "" {
			p.tmpl, _ = fold.ReadTemplate(it.URITemplate)
		}
	}
	p.it, p.subbed = it, subscribed
}

// SetReadOnly leaves out what needs a live server (a replay).
func (p *ItemPane) SetReadOnly() { p.readOnly = true }

// Item returns the item shown, or nil.
func (p *ItemPane) Item() *fold.Item { return p.it }

// Latest returns the newest request about the item shown: a read of the
// resource (or of an expansion of the template), a get of the prompt.
func (p *ItemPane) Latest() *fold.Request {
	reqs := p.St.Requests()
	k := LatestKey{Item: p.it, n: len(reqs)}
	if len(reqs) > 0 {
		k.reqs = &reqs[0]
	}
	if k != p.latestFor {
		p.latest, p.latestFor = p.find(), k
	}
	return p.latest
}

// find looks for the newest request about the item shown.
func (p *ItemPane) find() *fold.Request {
	it := p.it
	if it == nil {
		return nil
	}
	reqs := p.St.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		r := reqs[i]
		switch {
		case it.Method == paging.Resources().Name && r.Method == record.MethodRead && r.About == it.URI,
			it.Method == paging.Prompts().Name && r.Method == record.MethodGetPrompt && r.About == it.Name,
			it.Method == paging.ResourceTemplates().Name && r.Method == record.MethodRead && p.tmpl != nil && p.tmpl.Matches(r.About),
			it.Method == paging.Tasks().Name && r.Method == session.MethodTaskResult && r.About == it.Key:
			return r
		}
	}
	return nil
}

// listing is where the item shown stands.
func (p *ItemPane) listing() render.ItemListing {
	var l render.ItemListing
	if p.it == nil {
		return l
	}
	if w := p.St.Walk(p.it.Walk); w != nil {
		l.Done, l.Stale = w.Done, w.Stale()
	}
	l.Subscribed = p.subbed
	if p.it.URI != "" {
		l.Updated, _ = p.St.Updated(p.it.URI)
	}
	if !p.readOnly {
		switch p.it.Method {
		case paging.Resources().Name:
			l.Verb = "reads it (resources/read)"
		case paging.ResourceTemplates().Name:
			l.Verb = "fills its variables, then reads the uri"
		case paging.Tasks().Name:
			l.Verb = "fetches its result or error (tasks/result)"
			if p.it.Walk == 0 {
				l.Verb = "opens the call that made it, with its verdicts"
			}
		case paging.Prompts().Name:
			l.Verb = "gets it (prompts/get)"
			if len(p.it.Arguments) > 0 {
				l.Verb = "fills its arguments, then gets it (prompts/get)"
			}
		}
	}
	return l
}

// Sync rebuilds the document when what it shows changed. A big one is
// built in a command: the pane keeps the item's document as it was (or
// says it is rendering a new item's) until it comes.
func (p *ItemPane) Sync() tea.Cmd {
	k := ItemKey{Item: p.it, Req: p.Latest(), Width: p.w, sty: p.Sty, listing: p.listing()}
	if p.it != nil && p.it.Method == paging.Tasks().Name {
		if k.task = p.St.Task(p.it.Key); k.task != nil {
			c := p.St.Call(k.task.Call)
			k.callDone = c != nil && c.Done
		}
	}
	if !p.Builds.Want(k) {
		return nil
	}
	if p.it == nil {
		p.Builds.Shown(k)
		p.Sc.SetLines([]string{p.Sty.Muted.Render("Nothing selected.")})
		return nil
	}
	build, size := p.Builder(k)
	if size <= BigItemDoc {
		p.Builds.Shown(k)
		p.Sc.SetWide(build())
		return nil
	}
	p.Builds.Pending = k
	if b := p.Builds.Built.Item; b == nil || b.Method != k.Item.Method || b.Key != k.Item.Key {
		// Another item (not the same one listed again): its document.
		p.Builds.Built = ItemKey{}
		p.Sc.SetLines([]string{p.Sty.Muted.Render("rendering…")})
	}
	return func() tea.Msg {
		lines, widest := build()
		return ItemBuiltMsg{Key: k, Lines: lines, Widest: widest}
	}
}

// builder returns a function that builds k's document (see
// [itemBuilder]), reading now from the state what a task's shows, and
// how much of what the server sent the document shows.
func (p *ItemPane) Builder(k ItemKey) (build func() ([]string, int), size int) {
	task := ReadTaskView(p.St, k.task)
	return itemBuilder(k, task, p.Loc), ItemDocSize(k) + task.size()
}

// ItemDocSize is how much of what the server sent k's document shows.
func ItemDocSize(k ItemKey) int {
	n := len(k.Item.Raw)
	if r := k.Req; r != nil {
		n += len(r.Result) + len(r.RPCError) + len(r.Params)
	}
	return n
}

// itemBuilder returns a function that builds k's document (a task's
// from task, when it is one the state knows) and measures it; it reads
// only k (whose item and request the fold never changes), task and loc,
// so it may run on another goroutine.
func itemBuilder(k ItemKey, task *TaskView, loc *time.Location) func() ([]string, int) {
	return func() ([]string, int) {
		var lines []string
		if k.Item.Method == paging.Tasks().Name {
			lines = TaskItemLines(task, k.Item, k.listing, k.Req, max(k.Width-2, 10), k.sty, loc)
		} else {
			lines = render.ItemDoc(k.Item, k.listing, k.Req, max(k.Width-2, 10), k.sty, loc)
		}
		return lines, MeasureLines(lines)
	}
}

// Update takes a document built in a command, if it is still the one
// wanted, and scrolls while focused: down and up, and sideways (h/l)
// where JSON lines are wider than the pane.
func (p ItemPane) Update(msg tea.Msg) (ItemPane, tea.Cmd) {
	switch msg := msg.(type) {
	case ItemBuiltMsg:
		if p.Builds.Came(msg.Key) {
			p.Sc.SetWide(msg.Lines, msg.Widest)
		}
	case tea.KeyPressMsg:
		if !SidewaysKey(msg, &p.keys.SidewaysKeyMap, &p.Sc) {
			MoveKey(msg, &p.keys.MoveKeyMap, &p.Sc)
		}
	}
	return p, nil
}

// Wheel scrolls by n lines.
func (p *ItemPane) Wheel(n int) { p.Sc.ScrollBy(n) }

// View renders the pane in exactly h rows; busy names a request about the
// item in flight ("" for none) and spin is the spinner's frame.
func (p *ItemPane) View(busy, spin string) string {
	s := p.Sty
	title := "Detail"
	if p.it != nil {
		switch p.it.Method {
		case paging.Resources().Name:
			title = "Resource"
		case paging.ResourceTemplates().Name:
			title = "Template"
		case paging.Tasks().Name:
			title = "Task"
		default:
			title = "Prompt"
		}
	}
	head := p.TitleStyle(p.focused).Render(title) + s.Subtle.Render(SidewaysMark(p.Sc.Sideways()))
	right := ""
	if busy != "" {
		right = s.Spinner.Render(spin) + " " + s.Text.Render(sanitize.Line(busy)+"…")
	}
	if gap := p.w - lipgloss.Width(head) - lipgloss.Width(right) - 1; gap > 0 && right != "" {
		head += strings.Repeat(" ", gap) + right
	}
	out := render.Fit(head, p.w)
	if p.Sc.Height() > 0 {
		out += "\n" + p.Sc.View()
	}
	return out
}

// ShortHelp returns the pane's bindings for the help line.
func (p *ItemPane) ShortHelp() []key.Binding {
	k, g := p.keys, p.Global
	// Sideways comes early, where a narrow help line keeps it.
	out := SidewaysHelp([]key.Binding{k.Open}, &k.SidewaysKeyMap, &p.Sc)
	return append(out, k.Up, k.Down, g.Tabs, g.NextPane)
}
