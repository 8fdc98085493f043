package mcp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/smalltalk-go/st/internal/duration"
	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/reserve"
)

type reserveIn struct {
	Paths  []string "json:\"paths\" jsonschema:\"Files, folders (everything under them) or globs to reserve, relative to the server's working folder (the project) or absolute; all in one git repository. Globs: `*` and `?` within one name, `**` as a whole segment (`src/**`, `**/*.go`).\""
	Shared *bool    `json:"shared,omitempty" jsonschema:"true: a shared reservation (others may share it, nobody may take it exclusively). Default false: exclusive, nobody else may reserve or edit these paths."`
	TTL    *string  "json:\"ttl,omitempty\" jsonschema:\"How long it holds, a duration like `30m` or `2h`. Default 1h, at most 168h. Asking again for a path you hold renews it.\""
	Reason *string  `json:"reason,omitempty" jsonschema:"Why you reserve it; shown to any agent refused because of it."`
}

// reservationOut is one reservation as the tools return it.
type reservationOut struct {
	ID       string `json:"id" jsonschema:"The reservation's identifier."`
	Agent    string `json:"agent" jsonschema:"Who holds it."`
	Repo     string `json:"repo" jsonschema:"The git repository's top level, absolute."`
	Pattern  string `json:"pattern" jsonschema:"The path or glob reserved, relative to repo."`
	Mode     string `json:"mode" jsonschema:"exclusive or shared."`
	Reason   string `json:"reason" jsonschema:"Why the holder reserved it (empty when not given)."`
	Expires  string `json:"expires" jsonschema:"When it lapses unless renewed, RFC 3339 in UTC."`
	Conflict bool   `json:"conflict,omitempty" jsonschema:"Clashes with another reservation: two machines granted both before a sync brought them together."`
}

type reservationsOut struct {
	Reservations []reservationOut `json:"reservations" jsonschema:"The reservations granted, released or listed."`
}

// appendJSON is jsstr.Marshal(o) without reflection: st_reservations
// lists every active reservation, 1,000 of them in 250 KB.
func (o reservationsOut) appendJSON(b []byte) []byte {
	if o.Reservations == nil {
		return append(b, `{"reservations":null}`...) // as Marshal; toOut never gives nil
	}
	n := len(b) + 20
	for _, r := range o.Reservations {
		n += 100 + len(r.ID) + len(r.Agent) + len(r.Repo) + len(r.Pattern) + len(r.Mode) + len(r.Reason) + len(r.Expires)
	}
	b = slices.Grow(b, n-len(b)) // one allocation for the usual text, which needs no escapes
	b = append(b, `{"reservations":[`...)
	for i, r := range o.Reservations {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = jsstr.AppendString(b, r.ID)
		b = append(b, `,"agent":`...)
		b = jsstr.AppendString(b, r.Agent)
		b = append(b, `,"repo":`...)
		b = jsstr.AppendString(b, r.Repo)
		b = append(b, `,"pattern":`...)
		b = jsstr.AppendString(b, r.Pattern)
		b = append(b, `,"mode":`...)
		b = jsstr.AppendString(b, r.Mode)
		b = append(b, `,"reason":`...)
		b = jsstr.AppendString(b, r.Reason)
		b = append(b, `,"expires":`...)
		b = jsstr.AppendString(b, r.Expires)
		if r.Conflict {
			b = append(b, `,"conflict":true`...)
		}
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

type releaseIn struct {
	Paths []string `json:"paths,omitempty" jsonschema:"The paths or globs to release, as reserved (relative to the server's working folder or absolute)."`
	All   *bool    `json:"all,omitempty" jsonschema:"true: release every reservation you hold, in every repository. Give paths or all."`
}

type reservationsIn struct {
	Agent *string `json:"agent,omitempty" jsonschema:"Only this agent's reservations. Default: everyone's."`
}

func toOut(list []reserve.Reservation, conflicts map[string]bool) []reservationOut {
	out := make([]reservationOut, 0, len(list))
	for _, r := range list {
		out = append(out, reservationOut{ID: r.ID, Agent: r.Agent, Repo: r.Repo, Pattern: r.Pattern, Mode: r.Mode,
			Reason: r.Reason, Expires: r.Expires.UTC().Format(time.RFC3339), Conflict: conflicts[r.ID]})
	}
	return out
}

// patterns turns paths into one repository and its relative patterns.
func patterns(paths []string) (reserve.Where, []string, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return reserve.Where{}, nil, err
	}
	repo := reserve.Where{}
	var out []string
	for _, p := range paths {
		r, pat, err := reserve.Pattern(cwd, filepath.FromSlash(p))
		if err != nil {
			return reserve.Where{}, nil, err
		}
		if repo.Top != "" && r.Top != repo.Top {
			return reserve.Where{}, nil, sterr.Msg("%s and %s are in different repositories: reserve them separately", paths[0], p)
		}
		repo = r
		out = append(out, pat)
	}
	return repo, out, nil
}

func (s *server) addReserveTools() {
	add(s, tool[reserveIn, reservationsOut]{
		name:  "st_reserve",
		title: "Reserve files of this repository",
		description: "Reserve files, folders or globs of the git repository you work in, so that other agents keep off them (the CLI's `st reserve`): " +
			"an exclusive reservation refuses their overlapping reservations and, through st's hooks, their edits and commits. " +
			"All paths are granted or none. A refusal, RESERVATION_CONFLICT, names each holder, the reason and the expiry: message them, or work elsewhere. " +
			"Reserving a path you already hold renews it. Release when done (st_release); otherwise it lapses after ttl. " +
			"Other errors: INVALID_DURATION (ttl), NOT_IN_REPOSITORY (a path outside any git repository), and a plain error for paths in two repositories.",
		effect: effect{},
		run: func(in reserveIn) (string, reservationsOut, error) {
			repo, pats, err := patterns(in.Paths)
			if err != nil {
				return "", reservationsOut{}, err
			}
			req := reserve.Request{Agent: s.cfg.Agent, Repo: repo, Patterns: pats, Mode: reserve.Exclusive, Reason: str(in.Reason)}
			if in.Shared != nil && *in.Shared {
				req.Mode = reserve.Shared
			}
			if in.TTL != nil {
				d, err := duration.Parse(*in.TTL)
				if err != nil {
					return "", reservationsOut{}, err
				}
				if d <= 0 {
					return "", reservationsOut{}, sterr.New(sterr.InvalidDuration, "ttl must be longer than 0", nil)
				}
				req.TTL = d
			}
			req.Host, _ = os.Hostname()
			if err := layout.EnsureAgent(s.cfg.Root, s.cfg.Agent); err != nil {
				return "", reservationsOut{}, err
			}
			t, err := s.tree()
			if err != nil {
				return "", reservationsOut{}, err
			}
			defer t.Close()
			got, err := reserve.Reserve(context.Background(), t, req, s.cfg.Now())
			if err != nil {
				return "", reservationsOut{}, err
			}
			text := "reserved " + plural(len(got), "pattern", "patterns") + " in " + repo.Top
			for _, r := range got {
				if !reserve.OnDisk(r.Repo, r.Pattern) {
					text += "; " + r.Pattern + " matches nothing on disk yet"
				}
			}
			return text, reservationsOut{Reservations: toOut(got, nil)}, nil
		},
	})
	add(s, tool[releaseIn, reservationsOut]{
		name:  "st_release",
		title: "Release your reservations",
		description: "Give back your reservations (the CLI's `st release`): those of the given paths or globs, written as when reserved, in the repository you work in; or, with all=true, every one you hold. " +
			"Releasing what you do not hold is no error, so a repeat is harmless. Returns what was released. Give paths or all, not both.",
		effect: effect{destructive: true, idempotent: true},
		run: func(in releaseIn) (string, reservationsOut, error) {
			all := in.All != nil && *in.All
			if all == (len(in.Paths) > 0) {
				return "", reservationsOut{}, sterr.Msg("give paths or all: true")
			}
			repo, pats := reserve.Where{}, []string(nil)
			if !all {
				var err error
				if repo, pats, err = patterns(in.Paths); err != nil {
					return "", reservationsOut{}, err
				}
			}
			t := s.readTree()
			if t == nil {
				return "released 0 reservations", reservationsOut{Reservations: []reservationOut{}}, nil
			}
			defer t.Close()
			got, err := reserve.Release(context.Background(), t, s.cfg.Agent, repo, pats, s.cfg.Now())
			if err != nil {
				return "", reservationsOut{}, err
			}
			return "released " + plural(len(got), "reservation", "reservations"), reservationsOut{Reservations: toOut(got, nil)}, nil
		},
	})
	add(s, tool[reservationsIn, reservationsOut]{
		name:  "st_reservations",
		title: "List active reservations",
		description: "List the active reservations of every agent, or of one, oldest first (the CLI's `st reservations`): who holds which path or glob of which repository, exclusive or shared, why and until when. " +
			"Check it before starting on files others may be editing. A reservation marked conflict clashes with another one granted on a different machine before st sync met them. Changes nothing.",
		effect: reads,
		run: func(in reservationsIn) (string, reservationsOut, error) {
			if in.Agent != nil && *in.Agent != "" {
				if err := layout.CheckAgent(*in.Agent); err != nil {
					return "", reservationsOut{}, err
				}
			}
			t := s.readTree()
			defer closeTree(t)
			set := &reserve.Set{}
			if t != nil {
				set = reserve.Scan(t, s.cfg.Now())
			}
			list := set.Active
			if str(in.Agent) != "" {
				list = nil
				for _, r := range set.Active {
					if r.Agent == *in.Agent {
						list = append(list, r)
					}
				}
			}
			text := plural(len(list), "active reservation", "active reservations")
			if n := len(set.Skipped); n > 0 {
				text += fmt.Sprintf("; skipped %s", plural(n, "file that is not a reservation", "files that are not reservations"))
				text += " (" + set.Skipped[0].String() + ")"
			}
			return text, reservationsOut{Reservations: toOut(list, set.Conflicts())}, nil
		},
	})
}
