package main

import (
	"errors"
	"fmt"
)

// Exit codes, st-compat.md §2.6.
const (
	exitOK    = 0
	exitError = 1 // any error inside a verb
	exitUsage = 2 // no verb, unknown verb
)

// exitCode ends a command with a code after it has printed what it had
// to say itself (usage texts, plugin statuses).
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit %d", int(e)) }

// usageError prints text verbatim (no name prefix) and exits with code.
type usageError struct {
	text string
	code int
}

func (e *usageError) Error() string { return e.text }

// report maps the outcome of a command to an exit code, printing the one
// error line where there is one. It is the only place that does.
func (a *app) report(err error) int {
	var code exitCode
	var usage *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &code):
		return int(code)
	case errors.As(err, &usage):
		fmt.Fprint(a.stderr, usage.text)
		return usage.code
	default:
		fmt.Fprintf(a.stderr, "%s: %s\n", a.name, err.Error())
		return exitError
	}
}
