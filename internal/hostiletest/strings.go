package hostiletest

// ModeEvilStrings is a server whose every string (server name, tool names and
// descriptions, results, stderr, log messages, errors) holds terminal escape
// sequences, C1 controls, CR and BS overwrites, bidi overrides, zero-width
// characters and invalid UTF-8; see testdata/hostile/strings.go.
const ModeEvilStrings = "evil-strings"
