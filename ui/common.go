package ui

import (
	"time"

	"charm.land/lipgloss/v2"

	"mcpwitness/fold"
	"mcpwitness/themes"
	"mcpwitness/ui/panes"
)

// common is what the root shares with every pane: the session state shown
// (a replay swaps it as it moves), the styles (a new pointer when the theme
// changes, so a document still being built keeps the old ones), the
// global keys (a pane's help names some of them; each pane owns a map of
// its own keys besides) and the time zone. The root owns it and changes it; panes only read it,
// in Update, Sync and View (a command copies what it needs first). Each
// pane's size comes from its SetSize.
type common struct {
	st     *fold.State
	sty    *themes.Styles
	global *panes.GlobalKeyMap
	loc    *time.Location
}

// titleStyle is the style of a pane's title: bright when it has focus.
func (c *common) titleStyle(focused bool) lipgloss.Style {
	if focused {
		return c.sty.Title
	}
	return c.sty.TitleBlurred
}
