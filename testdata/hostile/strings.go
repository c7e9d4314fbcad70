package main

// stringsTheme holds the modes of this file.
func stringsTheme() theme {
	return theme{}
}
