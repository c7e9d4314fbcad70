package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/render"
)

// scroller shows a window of pre-rendered lines. It never renders: View
// slices the lines it was given.
type scroller struct {
	lines []string
	off   int
	w, h  int
	// x is the first column shown of lines wider than the window, and
	// widest the width in cells of the widest line, measured when the
	// lines were given (see [scroller.SetWide]); lines given by SetLines
	// do not scroll sideways.
	x      int
	widest int
	// ver counts SetLines; drawn is the window as Predraw drew it for
	// drawnKey.
	ver      int
	drawn    string
	drawnKey scrollKey
}

// scrollKey is what the window shows: the lines given, where, how big.
type scrollKey struct{ ver, off, w, h, x int }

func (s *scroller) key() scrollKey { return scrollKey{s.ver, s.off, s.w, s.h, s.x} }

// Predraw draws the window again when it changed, in Update: a frame
// whose window is as it was costs a comparison.
func (s *scroller) Predraw() {
	if k := s.key(); k != s.drawnKey || s.drawn == "" {
		s.drawn, s.drawnKey = s.draw(), k
	}
}

func (s *scroller) SetSize(w, h int) {
	s.w, s.h = w, max(h, 0)
	s.clamp()
	s.clampX()
}

// SetLines replaces the lines, keeping the scroll position when it can;
// they do not scroll sideways.
func (s *scroller) SetLines(lines []string) { s.SetWide(lines, 0) }

// SetWide replaces the lines with lines whose widest is widest cells
// wide (see [measureLines]), keeping the position, down and sideways,
// when it can: lines wider than the window scroll sideways.
func (s *scroller) SetWide(lines []string, widest int) {
	s.lines, s.widest = lines, widest
	s.ver++
	s.clamp()
	s.clampX()
}

// measureLines is the width in cells of the widest of lines (CJK and
// emoji take two cells). A pane measures once, when it builds its
// document, so that drawing and scrolling never measure.
func measureLines(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, ansi.StringWidth(l))
	}
	return w
}

func (s *scroller) ScrollBy(n int) {
	s.off += n
	s.clamp()
}

// ScrollX moves the window sideways by n cells, within the widest line.
func (s *scroller) ScrollX(n int) {
	s.x += n
	s.clampX()
}

func (s *scroller) clampX() { s.x = max(min(s.x, s.widest-s.w), 0) }

// Sideways is where the window stands sideways: the first column shown
// (0 when not scrolled), and whether lines go on past its right edge.
func (s *scroller) Sideways() (col int, more bool) { return s.x, s.widest > s.x+s.w }

// Height is the number of lines shown.
func (s *scroller) Height() int { return s.h }

func (s *scroller) Top() { s.off = 0 }

// Home goes to the start of a new document: its top, its left edge.
func (s *scroller) Home()   { s.off, s.x = 0, 0 }
func (s *scroller) Bottom() { s.off = len(s.lines); s.clamp() }

func (s *scroller) clamp() {
	s.off = min(s.off, len(s.lines)-s.h)
	s.off = max(s.off, 0)
}

// more says whether lines are hidden below the window.
func (s *scroller) more() bool { return s.off+s.h < len(s.lines) }

// View returns exactly h lines, each exactly w cells wide: as Predraw
// drew them when the window did not change since.
func (s *scroller) View() string {
	if s.drawn != "" && s.key() == s.drawnKey {
		return s.drawn
	}
	return s.draw()
}

func (s *scroller) draw() string {
	var b strings.Builder
	for i := 0; i < s.h; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		line := ""
		if n := s.off + i; n < len(s.lines) {
			line = s.lines[n]
		}
		if s.x > 0 {
			line = ansi.Cut(line, s.x, s.x+s.w)
		}
		b.WriteString(render.Fit(line, s.w))
	}
	return b.String()
}

// paint is a style reduced to the escape codes around its text, for rows
// drawn many times a frame: wrapping text in them costs a concatenation,
// not a full style render. Only for styles without padding, margins or
// widths.
type paint struct{ pre, post string }

func newPaint(render func(...string) string) paint {
	r := render("\x1f")
	i := strings.IndexByte(r, 0x1f)
	if i < 0 {
		return paint{}
	}
	return paint{pre: r[:i], post: r[i+1:]}
}

func (p paint) on(s string) string {
	if s == "" {
		return ""
	}
	return p.pre + s + p.post
}

// mover is what the movement keys act on: a scroller's offset or a list's
// cursor.
type mover interface {
	moveBy(n int)
	pageSize() int
	Top()
	Bottom()
}

func (s *scroller) moveBy(n int)  { s.ScrollBy(n) }
func (s *scroller) pageSize() int { return s.h }

// moveKey applies a movement key (up, down, page up, page down, top,
// bottom) to m and reports whether msg was one.
func moveKey(msg tea.KeyPressMsg, k *MoveKeyMap, m mover) bool {
	switch {
	case key.Matches(msg, k.Up):
		m.moveBy(-1)
	case key.Matches(msg, k.Down):
		m.moveBy(1)
	case key.Matches(msg, k.PageUp):
		m.moveBy(-m.pageSize())
	case key.Matches(msg, k.PageDown):
		m.moveBy(m.pageSize())
	case key.Matches(msg, k.Top):
		m.Top()
	case key.Matches(msg, k.Bottom):
		m.Bottom()
	default:
		return false
	}
	return true
}
