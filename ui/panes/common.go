package panes

import (
	"time"

	"charm.land/lipgloss/v2"

	"mcpwitness/fold"
	"mcpwitness/themes"
)

// Common is what the root shares with every pane: the session state shown
// (a replay swaps it as it moves), the styles (a new pointer when the theme
// changes, so a document still being built keeps the old ones), the
// global keys (a pane's help names some of them; each pane owns a map of
// its own keys besides) and the time zone. The root owns it and changes it; panes only read it,
// in Update, Sync and View (a command copies what it needs first). Each
// pane's size comes from its SetSize.
type Common struct {
	St     *fold.State
	Sty    *themes.Styles
	Global *GlobalKeyMap
	Loc    *time.Location
}

// TitleStyle is the style of a pane's title: bright when it has focus.
func (c *Common) TitleStyle(focused bool) lipgloss.Style {
	if focused {
		return c.Sty.Title
	}
	return c.Sty.TitleBlurred
}
