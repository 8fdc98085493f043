package main

import (
	"syscall"

	"github.com/smalltalk-go/st/internal/sterr"
)

// dashboardCmd serves the live web dashboard (package dashboard) by
// execing st-dashboard, so that net/http, html/template and goldmark
// stay out of st's start-up.
type dashboardCmd struct {
	Addr        *string `placeholder:"HOST:PORT" missing:"--addr requires HOST:PORT" help:"where to listen; port 0 picks a free one (default 127.0.0.1:8340)"`
	Open        bool    `help:"open the page in $BROWSER, else with xdg-open"`
	AllowRemote bool    `name:"allow-remote" help:"allow an --addr other machines can reach (anyone who reaches it reads every message)"`
	From        *string `placeholder:"ID" predict:"@agent" missing:"--from requires an agent" help:"the sender of messages written on the page (default: $ST_AGENT)"`
}

func (c *dashboardCmd) Run(a *app) error {
	bin := a.companion("st-dashboard")
	if bin == "" {
		return sterr.Msg("the dashboard st-dashboard is not installed next to %s or on PATH (install both: go install ./cmd/...)", a.selfPath())
	}
	argv := []string{bin}
	if c.Addr != nil {
		argv = append(argv, "--addr", *c.Addr)
	}
	if c.Open {
		argv = append(argv, "--open")
	}
	if c.AllowRemote {
		argv = append(argv, "--allow-remote")
	}
	if c.From != nil {
		argv = append(argv, "--from", *c.From)
	}
	// Exec, not a child: signals go straight to the server, and its exit
	// status is ours.
	return syscall.Exec(bin, argv, a.childEnv())
}

// Help is dashboard's paragraph.
func (dashboardCmd) Help() string {
	return `Prints the URL and serves until interrupted. The fleet page shows every
agent's status, unread count, last activity, whether it waits on a human
and the start of its now.md; an agent's page adds its context, inbox,
archive with threads and hook events. The page updates as files change,
and can send messages and set statuses. It runs {NAME}-dashboard, installed
next to {NAME}.`
}

func (dashboardCmd) examples() []example {
	return []example{
		{"serve and open it in the browser", "st dashboard --open"},
		{"any free port, sending as the operator", "st dashboard --addr 127.0.0.1:0 --from operator"},
	}
}
