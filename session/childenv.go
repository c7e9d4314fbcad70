package session

import (
	"runtime"
	"slices"
	"strings"
)

// InheritedEnv returns the names of the variables a stdio child inherits
// from our environment unless [Target.InheritEnv] is set: those the
// reference MCP SDKs pass by default (the TypeScript SDK's
// DEFAULT_INHERITED_ENV_VARS), enough to find programs and a home, and
// nothing that holds a credential.
func InheritedEnv() []string {
	if runtime.GOOS == "windows" {
		return []string{"APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PROCESSOR_ARCHITECTURE",
			"SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "USERNAME", "USERPROFILE", "PROGRAMFILES"}
	}
	return []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"}
}

// ChildEnv is the environment of t's child, given ours (KEY=VAL pairs, as
// os.Environ): the variables of [InheritedEnv] that are set, or all of
// ours with t.InheritEnv, then t.Env, whose pairs win.
func ChildEnv(ours []string, t Target) []string {
	env := ours
	if !t.InheritEnv {
		keep := InheritedEnv()
		env = nil
		for _, kv := range ours {
			name, _, _ := strings.Cut(kv, "=")
			if slices.ContainsFunc(keep, func(k string) bool { return sameName(k, name) }) {
				env = append(env, kv)
			}
		}
	}
	return append(slices.Clip(env), t.Env...)
}

// sameName reports whether two environment variable names are the same:
// on Windows they are case-insensitive.
func sameName(a, b string) bool {
	if runtime.GOOS == "windows" {
		return strings.EqualFold(a, b)
	}
	return a == b
}
