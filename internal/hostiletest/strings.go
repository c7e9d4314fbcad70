package hostiletest

// stringsModes are the modes of testdata/hostile/strings.go.
func stringsModes() []string { return nil }
