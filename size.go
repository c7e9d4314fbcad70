package main

import (
	"fmt"
	"strconv"
	"strings"
)

// minMaxFrame is the smallest --max-frame accepted: below it no server's
// answer to initialize fits, and the number was most likely meant in MiB.
const minMaxFrame = 1 << 10

// sizeUnits are the units --max-frame and --spool-max know, lower case: binary (k, KiB)
// and decimal (KB).
var sizeUnits = map[string]float64{
	"": 1, "b": 1,
	"k": 1 << 10, "kib": 1 << 10, "kb": 1e3,
	"m": 1 << 20, "mib": 1 << 20, "mb": 1e6,
	"g": 1 << 30, "gib": 1 << 30, "gb": 1e9,
}

// parseSize reads a size such as 64MiB, 1MB, 512k, 1.5m or 1048576 (bytes).
// The error says what is wrong, for a message that starts with the flag.
func parseSize(v string) (int64, error) {
	bytes, num, err := parseBytes(v)
	if err != nil {
		return 0, err
	}
	switch {
	case bytes > 1<<62:
		return 0, fmt.Errorf("%q is more than any frame can be", v)
	case bytes < minMaxFrame:
		return 0, fmt.Errorf("%q is %.0f bytes, less than 1 KiB: no server's answer fits (did you mean %sMiB?)", v, bytes, num)
	}
	return int64(bytes), nil
}

// parseBytes reads a size as [parseSize] does, with no bounds, and
// returns its number of bytes and the number written, without its unit.
func parseBytes(v string) (bytes float64, num string, err error) {
	s := strings.TrimSpace(v)
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := s, ""
	if i >= 0 {
		num, unit = s[:i], strings.ToLower(strings.TrimSpace(s[i:]))
	}
	mult, ok := sizeUnits[unit]
	f, perr := strconv.ParseFloat(num, 64)
	if !ok || perr != nil || num == "" {
		return 0, num, fmt.Errorf("wants a size such as 64MiB, 1MB, 512k or a number of bytes, not %q", v)
	}
	return f * mult, num, nil
}

// minSpoolMax is the smallest --spool-max but 0: below it the spool
// would stop almost at once, and the number was most likely meant in MiB.
const minSpoolMax = 1 << 20

// parseSpoolMax reads --spool-max: a size of at least 1 MiB, or 0 for no
// cap, which it returns as -1 (0 is the default cap).
func parseSpoolMax(v string) (int64, error) {
	bytes, num, err := parseBytes(v)
	switch {
	case err != nil:
		return 0, usagef("--spool-max %s (0 for no cap)", err)
	case bytes == 0:
		return -1, nil
	case bytes > 1<<62:
		return 0, usagef("--spool-max %q is more than any disk holds; 0 means no cap", v)
	case bytes < minSpoolMax:
		return 0, usagef("--spool-max %q is %.0f bytes, less than 1 MiB: the export spool would stop almost at once (did you mean %sMiB?)", v, bytes, num)
	}
	return int64(bytes), nil
}
