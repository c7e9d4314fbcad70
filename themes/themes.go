// Package themes holds the colour palettes of the terminal UI and builds the
// one [Styles] value the panes draw with. A palette is data; [New] turns it
// into styles. Nothing here is global or mutable: the UI asks for a theme by
// name, builds its styles once, and passes them down.
package themes

import (
	"image/color"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"
)

// The names of the built-in themes.
const (
	Dark         = "dark"
	Light        = "light"
	HighContrast = "high-contrast"
	Mono         = "mono"
)

// Palette is the set of colours a theme is made of. A nil colour means the
// terminal's default. Mono palettes draw with attributes (bold, faint,
// reverse, underline) only.
type Palette struct {
	Name string
	// Dark says the palette is meant for a dark background.
	Dark bool
	// Mono says the palette has no colours at all: emphasis comes from
	// attributes, and the selected row is drawn in reverse video.
	Mono bool

	Fg      color.Color // body text
	Muted   color.Color // secondary text
	Subtle  color.Color // rules, separators, the least important text
	Accent  color.Color // titles, the focused pane, the cursor
	Accent2 color.Color // the server name, highlights

	SelectedFg color.Color // the selected row of the focused pane
	SelectedBg color.Color
	DimBg      color.Color // the selected row of an unfocused pane

	Pass color.Color
	Fail color.Color
	Warn color.Color
	Info color.Color

	JSONKey    color.Color
	JSONString color.Color
	JSONNumber color.Color
	JSONLit    color.Color // true, false, null
}

// Names returns the names of the built-in themes in the order `t` cycles
// through them.
func Names() []string { return []string{Dark, Light, HighContrast, Mono} }

// Lookup returns the built-in palette named name.
func Lookup(name string) (Palette, bool) {
	switch name {
	case Dark:
		return darkPalette(), true
	case Light:
		return lightPalette(), true
	case HighContrast:
		return highContrastPalette(), true
	case Mono:
		return monoPalette(), true
	}
	return Palette{}, false
}

// Next returns the name of the theme after name in [Names], wrapping around.
// An unknown name gives the first theme.
func Next(name string) string {
	names := Names()
	for i, n := range names {
		if n == name {
			return names[(i+1)%len(names)]
		}
	}
	return names[0]
}

func darkPalette() Palette {
	c := lipgloss.Color
	return Palette{
		Name: Dark, Dark: true,
		Fg: c("#D9D9D9"), Muted: c("#8C8C8C"), Subtle: c("#4A4A4A"),
		Accent: c("#8E84F5"), Accent2: c("#F27EAD"),
		SelectedFg: c("#FFFFFF"), SelectedBg: c("#3B3566"), DimBg: c("#2A2A2A"),
		Pass: c("#64D28C"), Fail: c("#FF6B8B"), Warn: c("#F2B35E"), Info: c("#6CB6FF"),
		JSONKey: c("#8FB8F7"), JSONString: c("#A9CF8F"), JSONNumber: c("#E5BE73"), JSONLit: c("#C9A0E8"),
	}
}

func lightPalette() Palette {
	c := lipgloss.Color
	return Palette{
		Name: Light,
		Fg:   c("#2A2A2A"), Muted: c("#6B6B6B"), Subtle: c("#BDBDBD"),
		Accent: c("#5B4FD1"), Accent2: c("#C2286B"),
		SelectedFg: c("#1A1A1A"), SelectedBg: c("#DDD8FA"), DimBg: c("#ECECEC"),
		Pass: c("#1D7F3B"), Fail: c("#C01F48"), Warn: c("#9C5800"), Info: c("#0A5FB4"),
		JSONKey: c("#1C5BAA"), JSONString: c("#2D7A31"), JSONNumber: c("#955700"), JSONLit: c("#7A3A9E"),
	}
}

func highContrastPalette() Palette {
	c := lipgloss.Color
	return Palette{
		Name: HighContrast, Dark: true,
		Fg: c("#FFFFFF"), Muted: c("#D7D7D7"), Subtle: c("#A8A8A8"),
		Accent: c("#FFFF00"), Accent2: c("#00FFFF"),
		SelectedFg: c("#000000"), SelectedBg: c("#FFFF00"), DimBg: c("#444444"),
		Pass: c("#00FF5F"), Fail: c("#FF4040"), Warn: c("#FFAF00"), Info: c("#00D7FF"),
		JSONKey: c("#00FFFF"), JSONString: c("#00FF5F"), JSONNumber: c("#FFFF00"), JSONLit: c("#FF87FF"),
	}
}

func monoPalette() Palette {
	return Palette{Name: Mono, Dark: true, Mono: true}
}

// Styles is everything the panes draw with, built from one [Palette].
type Styles struct {
	Name string
	Mono bool

	Text   lipgloss.Style
	Muted  lipgloss.Style
	Subtle lipgloss.Style
	Bold   lipgloss.Style

	// Header: the server name, the rest of the header, its indicators.
	Server    lipgloss.Style
	HeaderKey lipgloss.Style

	// Pane titles, focused and not; the rule between panes.
	Title        lipgloss.Style
	TitleBlurred lipgloss.Style
	Rule         lipgloss.Style

	// Rows: the selected row of the focused pane and of an unfocused one,
	// and a list's page separator rows.
	Selected        lipgloss.Style
	SelectedBlurred lipgloss.Style
	Separator       lipgloss.Style
	Match           lipgloss.Style // the characters a filter matched

	// Badges on tool rows.
	BadgeTask  lipgloss.Style
	BadgeOut   lipgloss.Style
	BadgeRO    lipgloss.Style
	BadgeDestr lipgloss.Style
	BadgeHeld  lipgloss.Style
	BadgeOwn   lipgloss.Style
	BadgeStale lipgloss.Style

	// Outcomes and levels.
	Pass lipgloss.Style
	Fail lipgloss.Style
	Warn lipgloss.Style
	Info lipgloss.Style

	// JSON syntax.
	JSONKey    lipgloss.Style
	JSONString lipgloss.Style
	JSONNumber lipgloss.Style
	JSONLit    lipgloss.Style
	JSONPunct  lipgloss.Style

	// Forms: a field's label, focused and not; an enum choice.
	Label        lipgloss.Style
	LabelFocused lipgloss.Style
	Choice       lipgloss.Style

	// Wire directions.
	Send lipgloss.Style
	Recv lipgloss.Style

	Spinner lipgloss.Style
	// ProgressFull and ProgressEmpty colour a progress bar (nil: default).
	ProgressFull  color.Color
	ProgressEmpty color.Color

	Help help.Styles
}

// New builds the styles of palette p: each style is drawn in a colour of
// the palette (see [colourStyles]); a mono palette then draws with
// attributes only (see [monoStyles]).
func New(p Palette) Styles {
	s := Styles{Name: p.Name, Mono: p.Mono, ProgressFull: p.Accent, ProgressEmpty: p.Subtle}
	for _, r := range colourStyles(&s, p) {
		*r.style = r.attrs.on(fg(r.colour))
	}
	if p.Mono {
		for _, r := range monoStyles(&s) {
			*r.style = r.attrs.on(lipgloss.NewStyle())
		}
	} else {
		s.Selected = lipgloss.NewStyle().Foreground(p.SelectedFg).Background(p.SelectedBg)
		s.SelectedBlurred = lipgloss.NewStyle().Foreground(p.Fg).Background(p.DimBg)
	}
	s.Help = helpStyles(p, s)
	return s
}

// styleRule sets one style of a [Styles]: drawn in colour (nil: the
// terminal's default), with attrs.
type styleRule struct {
	style  *lipgloss.Style
	colour color.Color
	attrs  attr
}

// attr is a set of text attributes.
type attr uint8

// The text attributes a style may add.
const (
	bold attr = 1 << iota
	faint
	italic
	underline
	reverse
)

// on returns st with the attributes of a added.
func (a attr) on(st lipgloss.Style) lipgloss.Style {
	if a&bold != 0 {
		st = st.Bold(true)
	}
	if a&faint != 0 {
		st = st.Faint(true)
	}
	if a&italic != 0 {
		st = st.Italic(true)
	}
	if a&underline != 0 {
		st = st.Underline(true)
	}
	if a&reverse != 0 {
		st = st.Reverse(true)
	}
	return st
}

// fg returns a style drawn in c, or the terminal's default when c is nil.
func fg(c color.Color) lipgloss.Style {
	if c == nil {
		return lipgloss.NewStyle()
	}
	return lipgloss.NewStyle().Foreground(c)
}

// colourStyles lists the styles of s drawn in the colours of p.
func colourStyles(s *Styles, p Palette) []styleRule {
	return []styleRule{
		{&s.Text, p.Fg, 0},
		{&s.Muted, p.Muted, 0},
		{&s.Subtle, p.Subtle, 0},
		{&s.Bold, p.Fg, bold},
		{&s.Server, p.Accent2, bold},
		{&s.HeaderKey, p.Muted, 0},
		{&s.Title, p.Accent, bold},
		{&s.TitleBlurred, p.Muted, 0},
		{&s.Rule, p.Subtle, 0},
		{&s.Separator, p.Muted, 0},
		{&s.Match, p.Accent2, underline},

		{&s.BadgeTask, p.Warn, 0},
		{&s.BadgeOut, p.Info, 0},
		{&s.BadgeRO, p.Muted, 0},
		{&s.BadgeDestr, p.Fail, 0},
		{&s.BadgeHeld, p.Pass, 0},
		{&s.BadgeOwn, p.Muted, 0},
		{&s.BadgeStale, p.Warn, italic},

		{&s.Pass, p.Pass, 0},
		{&s.Fail, p.Fail, bold},
		{&s.Warn, p.Warn, 0},
		{&s.Info, p.Info, 0},

		{&s.JSONKey, p.JSONKey, 0},
		{&s.JSONString, p.JSONString, 0},
		{&s.JSONNumber, p.JSONNumber, 0},
		{&s.JSONLit, p.JSONLit, 0},
		{&s.JSONPunct, p.Muted, 0},

		{&s.Label, p.Muted, 0},
		{&s.LabelFocused, p.Accent, bold},
		{&s.Choice, p.Accent2, 0},

		{&s.Send, p.Accent, 0},
		{&s.Recv, p.Pass, 0},
		{&s.Spinner, p.Accent2, 0},
	}
}

// monoStyles lists the styles of s that a mono palette draws with
// attributes instead; the others keep their colourless styles.
func monoStyles(s *Styles) []styleRule {
	return []styleRule{
		{&s.Muted, nil, faint},
		{&s.Subtle, nil, faint},
		{&s.HeaderKey, nil, faint},
		{&s.TitleBlurred, nil, faint},
		{&s.Rule, nil, faint},
		{&s.Separator, nil, faint},
		{&s.Title, nil, bold | underline},
		{&s.Selected, nil, reverse},
		{&s.SelectedBlurred, nil, underline},
		{&s.Match, nil, underline},
		{&s.Fail, nil, bold},
		{&s.BadgeDestr, nil, bold},
		{&s.BadgeRO, nil, faint},
		{&s.BadgeOwn, nil, faint},
		{&s.JSONPunct, nil, faint},
		{&s.JSONKey, nil, bold},
		{&s.Label, nil, faint},
		{&s.LabelFocused, nil, bold | underline},
		{&s.Choice, nil, bold},
	}
}

// helpStyles returns the styles of the help bubble for p, whose other
// styles are s. High contrast keeps short descriptions as readable as keys.
func helpStyles(p Palette, s Styles) help.Styles {
	h := help.Styles{Ellipsis: s.Subtle, ShortSeparator: s.Subtle, FullSeparator: s.Subtle}
	if p.Mono {
		st := lipgloss.NewStyle()
		h.ShortKey, h.ShortDesc, h.FullKey, h.FullDesc = st.Bold(true), st.Faint(true), st.Bold(true), st
		return h
	}
	h.ShortKey, h.ShortDesc, h.FullKey, h.FullDesc = fg(p.Muted), fg(p.Subtle), fg(p.Accent), s.Muted
	if p.Name == HighContrast {
		h.ShortDesc = fg(p.Muted)
	}
	return h
}

// ByName builds the styles of the theme named name; ok is false for a name
// that is not one of [Names].
func ByName(name string) (s Styles, ok bool) {
	p, ok := Lookup(name)
	if !ok {
		return Styles{}, false
	}
	return New(p), true
}
