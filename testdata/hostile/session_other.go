//go:build !(linux || darwin || freebsd)

package main

// sessionReport says whether this process leads its own session; where
// sessions are unknown it says so.
func sessionReport() string { return "unknown" }
