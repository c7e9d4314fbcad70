package hostiletest

// wireModes are the modes of testdata/hostile/wire.go.
func wireModes() []string { return nil }
