package main

import (
	"fmt"
	"strconv"
	"time"

	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/termsafe"
	"github.com/smalltalk-go/st/reserve"
)

type reservationsCmd struct {
	Agent *string `placeholder:"ID" predict:"@agent" missing:"--agent requires a value" help:"only this agent's (default: everyone's)"`
	JSON  bool    `name:"json" help:"print a JSON array"`
}

func (c *reservationsCmd) Run(a *app) error {
	if c.Agent != nil {
		if err := layout.CheckAgent(*c.Agent); err != nil {
			return err
		}
	}
	t := a.tree()
	defer t.Close()
	now := a.now()
	set := &reserve.Set{}
	if t != nil {
		set = reserve.Scan(t, now)
	}
	for _, sk := range set.Skipped {
		fmt.Fprintf(a.stderr, "%s: warning: skipped %s\n", a.name, termsafe.Line(sk.String()))
	}
	var list []reserve.Reservation
	for _, r := range set.Active {
		if c.Agent == nil || r.Agent == *c.Agent {
			list = append(list, r)
		}
	}
	conflicts := set.Conflicts()
	if c.JSON {
		_, err := a.stdout.Write(appendReservationsJSON(nil, list, conflicts))
		return err
	}
	if len(list) == 0 {
		_, err := fmt.Fprintln(a.stdout, "no active reservations")
		return err
	}
	var lines []string
	for _, r := range list {
		mark := ""
		if conflicts[r.ID] {
			mark = "  CONFLICT"
		}
		line := fmt.Sprintf("%s  %s  %s  until %s (%s left)  %s", r.Agent, termsafe.Line(r.Mode), termsafe.Line(r.Pattern),
			r.Expires.Format(time.RFC3339), r.Expires.Sub(now).Round(time.Second), termsafe.Line(r.Repo))
		if r.Reason != "" {
			line += "  — " + termsafe.Line(r.Reason)
		}
		lines = append(lines, line+mark)
	}
	return a.printLines(lines)
}

// Help is reservations' paragraph.
func (reservationsCmd) Help() string {
	return `One line per active reservation, oldest first: agent, mode, pattern, expiry,
repository and reason; expired and released ones are left out. CONFLICT
marks two reservations that clash because two machines granted them before
a sync brought them together: until one is released, each holder's edits
under the other's reservation are refused. Clones of one repository at
different paths are one repository. A file of a reservations folder that is
not a reservation, or is larger than 64 KiB, is skipped with a warning on
stderr naming it.`
}

func (reservationsCmd) examples() []example {
	return []example{
		{"who holds what", "st reservations"},
		{"bob's reservations for a script", "st reservations --agent bob --json"},
	}
}

// appendReservationsJSON appends what printJSON(reservationsJSON(list,
// conflicts)) prints, without building a map per reservation: a listing
// can hold thousands.
func appendReservationsJSON(b []byte, list []reserve.Reservation, conflicts map[string]bool) []byte {
	b = append(b, '[')
	for i, r := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"agent":`...)
		b = jsstr.AppendString(b, r.Agent)
		b = append(b, `,"conflict":`...)
		b = strconv.AppendBool(b, conflicts[r.ID])
		for _, kv := range [...]struct{ k, v string }{
			{"created", r.Created.UTC().Format(time.RFC3339Nano)}, {"expires", r.Expires.UTC().Format(time.RFC3339Nano)},
			{"host", r.Host}, {"id", r.ID}, {"mode", r.Mode}, {"pattern", r.Pattern}, {"reason", r.Reason},
			{"repo", r.Repo}, {"repo_id", r.RepoID}, {"repo_origin", r.Origin},
		} {
			b = append(b, ',', '"')
			b = append(b, kv.k...)
			b = append(b, '"', ':')
			b = jsstr.AppendString(b, kv.v)
		}
		b = append(b, '}')
	}
	return append(b, ']', '\n')
}
