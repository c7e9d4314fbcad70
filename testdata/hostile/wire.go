package main

// wireTheme holds the modes of this file.
func wireTheme() theme {
	return theme{}
}
