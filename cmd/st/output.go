package main

import (
	"strings"

	"github.com/smalltalk-go/st/internal/jsstr"
)

// printJSON writes v on stdout as one JSON.stringify-compatible line, the
// form of every --json output.
func (a *app) printJSON(v any) error {
	out, err := jsstr.Marshal(v)
	if err != nil {
		return err
	}
	_, err = a.stdout.Write(append(out, '\n'))
	return err
}

// printLines writes one line per item on stdout in a single write.
func (a *app) printLines(lines []string) error {
	if len(lines) == 0 {
		return nil
	}
	_, err := a.stdout.Write([]byte(strings.Join(lines, "\n") + "\n"))
	return err
}
