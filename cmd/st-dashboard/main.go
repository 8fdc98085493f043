// Command st-dashboard serves st's live web dashboard. Run it as
// `st dashboard [--addr HOST:PORT] [--open] [--allow-remote] [--from ID]`,
// which execs this binary: net/http, html/template and goldmark stay out
// of st, so every other st command starts as fast as before.
package main

import (
	"cmp"
	"os"

	"github.com/smalltalk-go/st/dashboard"
	"github.com/smalltalk-go/st/internal/layout"
)

func main() {
	os.Exit(dashboard.Main(dashboard.Process{
		Name:   cmp.Or(os.Getenv("_ST_INVOKED_AS"), "st"),
		Args:   os.Args[1:],
		Env:    layout.NewEnv(os.LookupEnv, os.Stderr),
		Stdout: os.Stdout,
		Stderr: os.Stderr,
	}))
}
