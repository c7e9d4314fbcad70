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

// New builds the styles of palette p.
func New(p Palette) Styles {
	st := func() lipgloss.Style { return lipgloss.NewStyle() }
	fg := func(c color.Color) lipgloss.Style {
		if c == nil {
			return st()
		}
		return st().Foreground(c)
	}
	s := Styles{Name: p.Name, Mono: p.Mono}
	s.Text = fg(p.Fg)
	s.Muted = fg(p.Muted)
	s.Subtle = fg(p.Subtle)
	s.Bold = fg(p.Fg).Bold(true)
	s.Server = fg(p.Accent2).Bold(true)
	s.HeaderKey = fg(p.Muted)
	s.Title = fg(p.Accent).Bold(true)
	s.TitleBlurred = fg(p.Muted)
	s.Rule = fg(p.Subtle)
	s.Separator = fg(p.Muted)
	s.Match = fg(p.Accent2).Underline(true)

	s.BadgeTask = fg(p.Warn)
	s.BadgeOut = fg(p.Info)
	s.BadgeRO = fg(p.Muted)
	s.BadgeDestr = fg(p.Fail)
	s.BadgeHeld = fg(p.Pass)
	s.BadgeOwn = fg(p.Muted)
	s.BadgeStale = fg(p.Warn).Italic(true)

	s.Pass = fg(p.Pass)
	s.Fail = fg(p.Fail).Bold(true)
	s.Warn = fg(p.Warn)
	s.Info = fg(p.Info)

	s.JSONKey = fg(p.JSONKey)
	s.JSONString = fg(p.JSONString)
	s.JSONNumber = fg(p.JSONNumber)
	s.JSONLit = fg(p.JSONLit)
	s.JSONPunct = fg(p.Muted)

	s.Label = fg(p.Muted)
	s.LabelFocused = fg(p.Accent).Bold(true)
	s.Choice = fg(p.Accent2)

	s.Send = fg(p.Accent)
	s.Recv = fg(p.Pass)
	s.Spinner = fg(p.Accent2)
	s.ProgressFull = p.Accent
	s.ProgressEmpty = p.Subtle

	if p.Mono {
		s.Muted = st().Faint(true)
		s.Subtle = st().Faint(true)
		s.HeaderKey = st().Faint(true)
		s.TitleBlurred = st().Faint(true)
		s.Rule = st().Faint(true)
		s.Separator = st().Faint(true)
		s.Title = st().Bold(true).Underline(true)
		s.Selected = st().Reverse(true)
		s.SelectedBlurred = st().Underline(true)
		s.Match = st().Underline(true)
		s.Fail = st().Bold(true)
		s.BadgeDestr = st().Bold(true)
		s.BadgeRO = st().Faint(true)
		s.BadgeOwn = st().Faint(true)
		s.JSONPunct = st().Faint(true)
		s.JSONKey = st().Bold(true)
		s.Label = st().Faint(true)
		s.LabelFocused = st().Bold(true).Underline(true)
		s.Choice = st().Bold(true)
	} else {
		s.Selected = st().Foreground(p.SelectedFg).Background(p.SelectedBg)
		s.SelectedBlurred = st().Foreground(p.Fg).Background(p.DimBg)
	}

	s.Help = help.Styles{
		Ellipsis:       s.Subtle,
		ShortKey:       s.Muted.Bold(!p.Mono),
		ShortDesc:      s.Subtle,
		ShortSeparator: s.Subtle,
		FullKey:        fg(p.Accent),
		FullDesc:       s.Muted,
		FullSeparator:  s.Subtle,
	}
	if p.Mono {
		s.Help.ShortKey = st().Bold(true)
		s.Help.ShortDesc = st().Faint(true)
		s.Help.FullKey = st().Bold(true)
		s.Help.FullDesc = st()
	} else {
		s.Help.ShortKey = fg(p.Muted)
		s.Help.ShortDesc = fg(p.Subtle)
		if p.Name == HighContrast {
			s.Help.ShortDesc = fg(p.Muted)
		}
	}
	return s
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
