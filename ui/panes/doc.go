// Package panes holds the panes the inspector's screens are built from and
// the parts they share: the tools list, the item pane, the call editor,
// the form, the events and wire panes, each with its key map (ShortHelp,
// FullHelp); the scrolling window, the filter input, the paged list, the
// replay scrubber, the help view and the state every pane reads (Common).
// It never imports the root package ui; the root composes these panes.
package panes
