// Package reserve is advisory file reservations: an agent leases paths
// or globs of a git repository, exclusively or shared, for a while, so
// that other agents in the same repository keep off them. The hooks
// enforce them where edits happen (a Claude Code PreToolUse deny, a git
// pre-commit guard); the package itself only decides.
//
// Layout: each reservation is one file written once,
// $ST_ROOT/<agent>/reservations/<unix-ms>-<rand6>.json, and releasing it
// adds <unix-ms>-<rand6>.released beside it. Nothing is rewritten, so the
// files survive st sync's union-only transfers: a release made on one
// machine reaches the others as the extra file and cannot be undone by
// an older copy. A reservation is active until it is released or it
// expires; the files of an expired one are removed by the next grant.
//
// Granting is race-free on one machine: the check and the write happen
// under one lock (fsutil.Lock, outside the store). Across machines the
// files travel with st sync and are eventually consistent: two machines
// can each grant an overlapping exclusive reservation between syncs;
// List then marks both as conflicting, and each holder's edits under the
// other's reservation are refused until one of them releases.
package reserve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/message"
)

// Modes.
const (
	Exclusive = "exclusive"
	Shared    = "shared"
)

// Folder is the reservations folder inside an agent's folder.
const Folder = "reservations"

// DefaultTTL is a reservation's lifetime when none is given; MaxTTL
// bounds it, so a forgotten reservation cannot block others for long.
const (
	DefaultTTL = time.Hour
	MaxTTL     = 7 * 24 * time.Hour
)

// Conflict is the error code of a refused reservation.
const Conflict = "RESERVATION_CONFLICT"

const (
	lockKey       = "reservations"
	recordSuffix  = ".json"
	releaseSuffix = ".released"
)

// Reservation is one lease, as stored.
type Reservation struct {
	ID      string    `json:"id"` // the file's name without .json
	Agent   string    `json:"agent"`
	Repo    string    `json:"repo"`    // the git top level, absolute
	Pattern string    `json:"pattern"` // relative to Repo (glob.go)
	Mode    string    `json:"mode"`
	Reason  string    `json:"reason,omitempty"`
	Host    string    `json:"host,omitempty"`
	Created time.Time `json:"created"`
	Expires time.Time `json:"expires"`

	released bool
}

// Active reports whether r holds at now.
func (r Reservation) Active(now time.Time) bool { return !r.released && now.Before(r.Expires) }

// Request asks for reservations of Patterns (already repository-relative,
// see Pattern) in Repo.
type Request struct {
	Agent    string
	Repo     string
	Patterns []string
	Mode     string // Exclusive or Shared; "" is Exclusive
	TTL      time.Duration
	Reason   string
	Host     string
}

// Clashes reports whether want and have may not both hold: they belong
// to different agents in one repository, their patterns overlap, and at
// least one is exclusive.
func Clashes(want, have Reservation) bool {
	if want.Agent == have.Agent || want.Repo != have.Repo {
		return false
	}
	if want.Mode == Shared && have.Mode == Shared {
		return false
	}
	a, err1 := Parse(want.Pattern)
	b, err2 := Parse(have.Pattern)
	return err1 == nil && err2 == nil && Overlap(a, b)
}

// Reserve grants every pattern of req or none: under the lock it drops
// expired reservations, checks the request against everyone else's
// active ones, and writes one file per pattern. Asking again for a
// pattern the agent holds renews it (new mode, reason and expiry).
func Reserve(ctx context.Context, t *fsutil.Tree, req Request, now time.Time) ([]Reservation, error) {
	if req.Mode == "" {
		req.Mode = Exclusive
	}
	if req.Mode != Exclusive && req.Mode != Shared {
		return nil, sterr.Msg("invalid mode %q: exclusive or shared", req.Mode)
	}
	if req.TTL == 0 {
		req.TTL = DefaultTTL
	}
	if req.TTL < time.Second || req.TTL > MaxTTL {
		return nil, sterr.New(sterr.InvalidDuration, fmt.Sprintf("invalid --ttl %s: between 1s and %s", req.TTL, MaxTTL), nil)
	}
	if len(req.Patterns) == 0 {
		return nil, sterr.Msg("nothing to reserve: give at least one path or glob")
	}
	var want []Reservation
	for _, p := range req.Patterns {
		g, err := Parse(p)
		if err != nil {
			return nil, err
		}
		want = append(want, Reservation{Agent: req.Agent, Repo: req.Repo, Pattern: g.String(), Mode: req.Mode,
			Reason: req.Reason, Host: req.Host, Created: now.UTC(), Expires: now.Add(req.TTL).UTC()})
	}
	unlock, err := t.Lock(ctx, lockKey)
	if err != nil {
		return nil, err
	}
	defer unlock()
	all := load(t)
	all = dropExpired(t, all, now)
	var clash []Reservation
	for _, w := range want {
		for _, h := range all {
			if h.Active(now) && Clashes(w, h) && !slices.ContainsFunc(clash, func(c Reservation) bool { return c.ID == h.ID }) {
				clash = append(clash, h)
			}
		}
	}
	if len(clash) > 0 {
		return nil, conflictError(want, clash, now)
	}
	if err := t.MkdirAll(req.Agent + "/" + Folder); err != nil {
		return nil, err
	}
	for i, w := range want {
		for _, h := range all {
			if h.Agent == w.Agent && h.Repo == w.Repo && h.Pattern == w.Pattern && h.Active(now) {
				if err := markReleased(t, h, now); err != nil {
					return nil, err
				}
			}
		}
		w, err := deliver(t, w, now)
		if err != nil {
			return nil, err
		}
		want[i] = w
	}
	return want, nil
}

// deliver writes w under a fresh name, which is also its ID: the name is
// chosen first so the bytes, ID included, are whole before it appears.
func deliver(t *fsutil.Tree, w Reservation, now time.Time) (Reservation, error) {
	for range 5 {
		w.ID = strings.TrimSuffix(message.NewName(now), ".md")
		data, _ := json.MarshalIndent(w, "", "  ")
		_, err := t.Deliver(w.Agent+"/"+Folder, append(data, '\n'), func() string { return w.ID + recordSuffix })
		if !errors.Is(err, fsutil.ErrCollisions) {
			return w, err
		}
	}
	return w, fsutil.ErrCollisions
}

// conflictError names every holder in the way, why, until when, and how
// to ask them.
func conflictError(want, clash []Reservation, now time.Time) error {
	var b strings.Builder
	pats := make([]string, len(want))
	for i, w := range want {
		pats[i] = w.Pattern
	}
	fmt.Fprintf(&b, "cannot reserve %s (%s): ", strings.Join(pats, ", "), want[0].Mode)
	holders := make([]map[string]any, 0, len(clash))
	for i, h := range clash {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(Describe(h, now))
		holders = append(holders, map[string]any{"agent": h.Agent, "pattern": h.Pattern, "mode": h.Mode,
			"reason": h.Reason, "expires": h.Expires.UTC().Format(time.RFC3339), "id": h.ID})
	}
	fmt.Fprintf(&b, " — ask: st message send %s", clash[0].Agent)
	return sterr.New(Conflict, b.String(), map[string]any{"holders": holders})
}

// Describe is one line about h for a person or a model: who holds what,
// how, why and until when.
func Describe(h Reservation, now time.Time) string {
	s := fmt.Sprintf("%s holds %s (%s) until %s (%s left)", h.Agent, h.Pattern, h.Mode,
		h.Expires.UTC().Format(time.RFC3339), h.Expires.Sub(now).Round(time.Second))
	if h.Reason != "" {
		s += ": " + h.Reason
	}
	return s
}

// Release releases the agent's active reservations in repo whose
// pattern is one of patterns (as Pattern returns them), or all of them
// when patterns is empty; repo "" means every repository. Releasing
// what is not held is no error. It returns what it released.
func Release(ctx context.Context, t *fsutil.Tree, agent, repo string, patterns []string, now time.Time) ([]Reservation, error) {
	var norm []string
	for _, p := range patterns {
		g, err := Parse(p)
		if err != nil {
			return nil, err
		}
		norm = append(norm, g.String())
	}
	unlock, err := t.Lock(ctx, lockKey)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var done []Reservation
	for _, r := range loadAgent(t, agent) {
		if !r.Active(now) || repo != "" && r.Repo != repo || len(norm) > 0 && !slices.Contains(norm, r.Pattern) {
			continue
		}
		if err := markReleased(t, r, now); err != nil {
			return done, err
		}
		done = append(done, r)
	}
	return done, nil
}

// markReleased adds r's tombstone; one that exists already is fine.
func markReleased(t *fsutil.Tree, r Reservation, now time.Time) error {
	name := r.ID + releaseSuffix
	data := fmt.Appendf(nil, "{\"released\": %q}\n", now.UTC().Format(time.RFC3339Nano))
	_, err := t.Deliver(r.Agent+"/"+Folder, data, func() string { return name })
	if errors.Is(err, fsutil.ErrCollisions) {
		return nil
	}
	return err
}

// List returns every active reservation, oldest first. Conflicting ones
// (granted on two machines between syncs) are all listed; Conflicts
// tells them apart.
func List(t *fsutil.Tree, now time.Time) []Reservation {
	var out []Reservation
	for _, r := range load(t) {
		if r.Active(now) {
			out = append(out, r)
		}
	}
	return out
}

// Conflicts returns the IDs of the reservations in list that clash with
// another one in list: only possible after a sync merged two machines'
// grants.
func Conflicts(list []Reservation) map[string]bool {
	bad := map[string]bool{}
	for i, a := range list {
		for _, b := range list[i+1:] {
			if Clashes(a, b) {
				bad[a.ID], bad[b.ID] = true, true
			}
		}
	}
	return bad
}

// Holder returns the active exclusive reservation of another agent than
// agent covering rel (repository-relative) in repo, if any: the one that
// refuses agent's edit.
func Holder(t *fsutil.Tree, agent, repo, rel string, now time.Time) (Reservation, bool) {
	for _, r := range load(t) {
		if r.Agent == agent || r.Repo != repo || r.Mode != Exclusive || !r.Active(now) {
			continue
		}
		if g, err := Parse(r.Pattern); err == nil && g.Match(rel) {
			return r, true
		}
	}
	return Reservation{}, false
}

// load reads every agent's reservations; unreadable files are skipped.
func load(t *fsutil.Tree) []Reservation {
	names, err := t.ReadDirNames(".")
	if err != nil {
		return nil
	}
	slices.Sort(names)
	var out []Reservation
	for _, agent := range names {
		if strings.HasPrefix(agent, ".") {
			continue
		}
		out = append(out, loadAgent(t, agent)...)
	}
	return out
}

// loadAgent reads one agent's reservations, oldest first.
func loadAgent(t *fsutil.Tree, agent string) []Reservation {
	dir := agent + "/" + Folder
	names, err := t.ReadDirNames(dir)
	if err != nil {
		return nil
	}
	slices.Sort(names)
	released := map[string]bool{}
	for _, n := range names {
		if id, ok := strings.CutSuffix(n, releaseSuffix); ok {
			released[id] = true
		}
	}
	var out []Reservation
	for _, n := range names {
		id, ok := strings.CutSuffix(n, recordSuffix)
		if !ok || strings.HasPrefix(n, ".") {
			continue
		}
		data, _, err := t.ReadRegular(dir + "/" + n)
		if err != nil {
			continue
		}
		var r Reservation
		if json.Unmarshal(data, &r) != nil || r.Agent != agent || r.Expires.IsZero() {
			continue // empty (being written), broken, or not where it claims
		}
		r.ID, r.released = id, released[id]
		out = append(out, r)
	}
	return out
}

// dropExpired removes the files of expired reservations and returns the
// rest. Removing is best effort: a file left is ignored all the same.
func dropExpired(t *fsutil.Tree, all []Reservation, now time.Time) []Reservation {
	kept := all[:0]
	for _, r := range all {
		if now.Before(r.Expires) {
			kept = append(kept, r)
			continue
		}
		dir := r.Agent + "/" + Folder + "/"
		if err := t.Remove(dir + r.ID + recordSuffix); err == nil || errors.Is(err, fs.ErrNotExist) {
			t.Remove(dir + r.ID + releaseSuffix)
		}
	}
	return kept
}
