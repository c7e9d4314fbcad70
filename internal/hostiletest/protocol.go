package hostiletest

// protocolModes are the modes of testdata/hostile/protocol.go.
func protocolModes() []string { return nil }
