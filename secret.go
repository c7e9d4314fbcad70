package main

import (
	"fmt"
	"os"
	"strings"
)

// secretFrom says where a client secret comes from, as a user named it:
// the secret itself (visible to ps), a file, or an environment variable.
// At most one is set.
type secretFrom struct {
	value, file, env string
	// names are what the three are called where the user gave them.
	names [3]string
}

// secretFlags names the sources as the command line does.
func secretFlags() [3]string {
	return [3]string{"--client-secret", "--client-secret-file", "--client-secret-env"}
}

// check reports more than one source given.
func (s secretFrom) check() error {
	var given []string
	for i, v := range []string{s.value, s.file, s.env} {
		if v != "" {
			given = append(given, s.names[i])
		}
	}
	if len(given) > 1 {
		return fmt.Errorf("%s are ways to give one client secret: give one of %s", strings.Join(given, " and "), strings.Join(s.names[:], ", "))
	}
	return nil
}

// read returns the secret: the value, the file's content (a final line
// end dropped) or the variable's value, looked up with lookup.
func (s secretFrom) read(lookup func(string) (string, bool)) (string, error) {
	if err := s.check(); err != nil {
		return "", err
	}
	switch {
	case s.file != "":
		b, err := os.ReadFile(s.file)
		if err != nil {
			return "", fmt.Errorf("%s %s: cannot read the client secret: %w", s.names[1], s.file, err)
		}
		v := strings.TrimRight(string(b), "\r\n")
		if v == "" {
			return "", fmt.Errorf("%s %s: the file is empty; it should hold the client secret", s.names[1], s.file)
		}
		return v, nil
	case s.env != "":
		v, ok := lookup(s.env)
		if !ok || v == "" {
			return "", fmt.Errorf("%s %s: the environment variable %s is not set; export it with the client secret", s.names[2], s.env, s.env)
		}
		return v, nil
	}
	return s.value, nil
}
