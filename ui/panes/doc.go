// Package panes holds the parts the inspector's screens are built from: the
// key maps of every pane (each with ShortHelp and FullHelp), the scrolling
// window, the filter input, the replay scrubber, the help view, the shared
// state every pane reads (Common) and the form pane. It never
// imports the root package ui; the root composes these parts into its model.
package panes
