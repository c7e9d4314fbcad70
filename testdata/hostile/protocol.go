package main

// protocolTheme holds the modes of this file.
func protocolTheme() theme {
	return theme{}
}
