package record

import "os"

// The helpers of this package's tests, for the tests in package
// record_test that record a live session.
var (
	NewSpoolWith      = newSpoolWith
	LastEvent         = lastEvent
	CheckStoppedAtCap = checkStoppedAtCap
)

// SpoolFileStat describes the file behind s.
func SpoolFileStat(s *Spool) (os.FileInfo, error) { return s.src.Stat() }

// The fuzz seeds, which package record_test records from a live session.
var (
	SeedCalls = seedCalls
	ReadSeeds = readSeeds
)
