// Package panes holds the parts the inspector's screens are built from: the
// key maps of every pane (each with ShortHelp and FullHelp), the scrolling
// window, the filter input, the replay scrubber and the help view. It never
// imports the root package ui; the root composes these parts into its model.
package panes
