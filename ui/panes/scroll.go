package panes

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/render"
)

// Scroller shows a window of pre-rendered lines. It never renders: View
// slices the lines it was given.
type Scroller struct {
	Lines []string
	Off   int
	W, H  int
	// X is the first column shown of lines wider than the window, and
	// widest the width in cells of the widest line, Measured when the
	// lines were given (see [Scroller.SetWide]); lines given by SetLines
	// do not scroll sideways.
	X      int
	Widest int
	// Ver counts SetLines; drawn is the window as Predraw drew it for
	// drawnKey.
	Ver      int
	Drawn    string
	DrawnKey ScrollKey
}

// ScrollKey is what the window shows: the lines given, where, how big.
type ScrollKey struct{ ver, off, w, h, x int }

func (s *Scroller) key() ScrollKey { return ScrollKey{s.Ver, s.Off, s.W, s.H, s.X} }

// Predraw draws the window again when it changed, in Update: a frame
// whose window is as it was costs a comparison.
func (s *Scroller) Predraw() {
	if k := s.key(); k != s.DrawnKey || s.Drawn == "" {
		s.Drawn, s.DrawnKey = s.Draw(), k
	}
}

func (s *Scroller) SetSize(w, h int) {
	s.W, s.H = w, max(h, 0)
	s.clamp()
	s.clampX()
}

// SetLines replaces the lines, keeping the scroll position when it can;
// they do not scroll sideways.
func (s *Scroller) SetLines(lines []string) { s.SetWide(lines, 0) }

// SetWide replaces the lines with lines whose widest is widest cells
// wide (see [MeasureLines]), keeping the position, down and sideways,
// when it can: lines wider than the window scroll sideways.
func (s *Scroller) SetWide(lines []string, widest int) {
	s.Lines, s.Widest = lines, widest
	s.Ver++
	s.clamp()
	s.clampX()
}

// MeasureLines is the width in cells of the widest of lines (CJK and
// emoji take two cells). A pane measures once, when it Builds its
// document, so that drawing and scrolling never measure.
func MeasureLines(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, ansi.StringWidth(l))
	}
	return w
}

func (s *Scroller) ScrollBy(n int) {
	s.Off += n
	s.clamp()
}

// ScrollX moves the window sideways by n cells, within the widest line.
func (s *Scroller) ScrollX(n int) {
	s.X += n
	s.clampX()
}

func (s *Scroller) clampX() { s.X = max(min(s.X, s.Widest-s.W), 0) }

// Sideways is where the window stands sideways: the first column shown
// (0 when not scrolled), and whether lines go on past its right edge.
func (s *Scroller) Sideways() (col int, more bool) { return s.X, s.Widest > s.X+s.W }

// Height is the number of lines shown.
func (s *Scroller) Height() int { return s.H }

func (s *Scroller) Top() { s.Off = 0 }

// Home goes to the start of a new document: its top, its left edge.
func (s *Scroller) Home()   { s.Off, s.X = 0, 0 }
func (s *Scroller) Bottom() { s.Off = len(s.Lines); s.clamp() }

func (s *Scroller) clamp() {
	s.Off = min(s.Off, len(s.Lines)-s.H)
	s.Off = max(s.Off, 0)
}

// More says whether lines are hidden below the window.
func (s *Scroller) More() bool { return s.Off+s.H < len(s.Lines) }

// View returns exactly h lines, each exactly w cells wide: as Predraw
// drew them when the window did not change since.
func (s *Scroller) View() string {
	if s.Drawn != "" && s.key() == s.DrawnKey {
		return s.Drawn
	}
	return s.Draw()
}

func (s *Scroller) Draw() string {
	var b strings.Builder
	for i := 0; i < s.H; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		line := ""
		if n := s.Off + i; n < len(s.Lines) {
			line = s.Lines[n]
		}
		if s.X > 0 {
			line = ansi.Cut(line, s.X, s.X+s.W)
		}
		b.WriteString(render.Fit(line, s.W))
	}
	return b.String()
}

// Paint is a style reduced to the escape codes around its text, for rows
// drawn many times a frame: wrapping text in them costs a concatenation,
// not a full style render. Only for styles without padding, margins or
// widths.
type Paint struct{ pre, post string }

func NewPaint(render func(...string) string) Paint {
	r := render("\x1f")
	i := strings.IndexByte(r, 0x1f)
	if i < 0 {
		return Paint{}
	}
	return Paint{pre: r[:i], post: r[i+1:]}
}

func (p Paint) On(s string) string {
	if s == "" {
		return ""
	}
	return p.pre + s + p.post
}

// Mover is what the movement keys act on: a Scroller's offset or a list's
// cursor.
type Mover interface {
	MoveBy(n int)
	PageSize() int
	Top()
	Bottom()
}

func (s *Scroller) MoveBy(n int)  { s.ScrollBy(n) }
func (s *Scroller) PageSize() int { return s.H }

// MoveKey applies a movement key (up, down, page up, page down, top,
// bottom) to m and reports whether msg was one.
func MoveKey(msg tea.KeyPressMsg, k *MoveKeyMap, m Mover) bool {
	switch {
	case key.Matches(msg, k.Up):
		m.MoveBy(-1)
	case key.Matches(msg, k.Down):
		m.MoveBy(1)
	case key.Matches(msg, k.PageUp):
		m.MoveBy(-m.PageSize())
	case key.Matches(msg, k.PageDown):
		m.MoveBy(m.PageSize())
	case key.Matches(msg, k.Top):
		m.Top()
	case key.Matches(msg, k.Bottom):
		m.Bottom()
	default:
		return false
	}
	return true
}

// Offset is the index of the top line in view.
func (s *Scroller) Offset() int { return s.Off }

// ShowSpan scrolls so that lines from to to are in view, from at least.
func (s *Scroller) ShowSpan(from, to int) {
	switch {
	case from < s.Off:
		s.Off = from
	case to > s.Off+s.H:
		s.Off = min(to-s.H, from)
	}
	s.clamp()
}

// Line returns line i of the content and whether there is one.
func (s *Scroller) Line(i int) (string, bool) {
	if i < 0 || i >= len(s.Lines) {
		return "", false
	}
	return s.Lines[i], true
}

// Len is how many lines the content has.
func (s *Scroller) Len() int { return len(s.Lines) }
