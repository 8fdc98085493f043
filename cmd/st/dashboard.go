package main

import (
	"syscall"

	"github.com/smalltalk-go/st/internal/sterr"
)

// dashboardCmd serves the live web dashboard (package dashboard) by
// execing st-dashboard, so that net/http, html/template and goldmark
// stay out of st's start-up.
type dashboardCmd struct {
	Addr        *string `missing:"--addr requires HOST:PORT" help:"listen address (default 127.0.0.1:8340)"`
	Open        bool    `help:"open the page in a browser"`
	AllowRemote bool    `name:"allow-remote" help:"allow a non-loopback --addr"`
	From        *string `missing:"--from requires an agent" help:"sender of messages sent from the page (default $ST_AGENT)"`
}

func (c *dashboardCmd) help(a *app) string {
	return named(`usage: {NAME} dashboard [--addr HOST:PORT] [--open] [--allow-remote] [--from ID]

  Serve a live web page of the whole fleet on this machine and print
  its URL. The fleet view shows every identity's status (unknown when
  stale), unread count, last activity, whether it waits on a human,
  and the first lines of its now.md; an identity's page adds now.md
  rendered, decisions/, inbox and archive with threads, and the hook
  event timeline. Send a message or set a status from the page. The
  page updates itself as files land; no reload.

  --addr HOST:PORT   listen address (default 127.0.0.1:8340;
                     127.0.0.1:0 picks a free port)
  --open             open the URL in $BROWSER (else xdg-open)
  --allow-remote     serve a non-loopback address; prints a warning:
                     anyone who reaches it reads every message
  --from ID          sender of messages sent from the page
                     (default $ST_AGENT)

  Runs until SIGINT or SIGTERM (exit 0). Execs {NAME}-dashboard,
  installed beside {NAME}.

  Examples:
    {NAME} dashboard --open
    {NAME} dashboard --addr 127.0.0.1:0 --from operator
`, a.name)
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
