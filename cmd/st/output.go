package main

import "github.com/smalltalk-go/st/internal/jsstr"

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
