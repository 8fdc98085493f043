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
// under one lock (fsutil.Lock, outside the store), and so it is between
// the hosts that mount one store on a shared filesystem, where that lock
// lives in the store. Across machines synced by st sync the files travel
// with the sync and are eventually consistent: two machines
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
	"sync"
	"sync/atomic"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/stackstart"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/internal/termsafe"
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
	Repo    string    `json:"repo"`                  // the git top level where it was made, absolute
	RepoID  string    `json:"repo_id,omitempty"`     // its root commit (Identify); absent in older files
	Origin  string    `json:"repo_origin,omitempty"` // its origin remote, normalised
	Pattern string    `json:"pattern"`               // relative to the top level (glob.go)
	Mode    string    `json:"mode"`
	Reason  string    `json:"reason,omitempty"`
	Host    string    `json:"host,omitempty"`
	Created time.Time `json:"created"`
	Expires time.Time `json:"expires"`

	released bool
}

// Active reports whether r holds at now.
func (r Reservation) Active(now time.Time) bool { return !r.released && now.Before(r.Expires) }

// Where returns the repository r was made in.
func (r Reservation) Where() Where { return Where{Top: r.Repo, ID: r.RepoID, Origin: r.Origin} }

// Request asks for reservations of Patterns (already repository-relative,
// see Pattern) in the repository Repo.
type Request struct {
	Agent    string
	Repo     Where
	Patterns []string
	Mode     string // Exclusive or Shared; "" is Exclusive
	TTL      time.Duration
	Reason   string
	Host     string
}

// InvalidReason is the error code of a reason st refuses to record.
const InvalidReason = "INVALID_REASON"

// CheckReason refuses a reason holding a control character: it is shown
// on one line to people and models, where a newline would forge lines
// and an escape sequence would reach a terminal.
func CheckReason(reason string) error {
	if r, ok := termsafe.Control(reason); ok {
		return sterr.New(InvalidReason, fmt.Sprintf("invalid reason: it holds the control character %U; give one line of plain text", r),
			map[string]any{"reason": reason})
	}
	return nil
}

// Clashes reports whether want and have may not both hold: they belong
// to different agents in one repository, their patterns overlap, and at
// least one is exclusive.
func Clashes(want, have Reservation) bool {
	a, err1 := Parse(want.Pattern)
	b, err2 := Parse(have.Pattern)
	return err1 == nil && err2 == nil && clashes(want, have, a, b)
}

// clashes is Clashes with both patterns parsed.
func clashes(want, have Reservation, a, b Glob) bool {
	if want.Agent == have.Agent || !want.Where().Same(have.Repo, have.RepoID, have.Origin) {
		return false
	}
	if want.Mode == Shared && have.Mode == Shared {
		return false
	}
	return Overlap(a, b)
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
	if err := CheckReason(req.Reason); err != nil {
		return nil, err
	}
	var want []Reservation
	var wantGlobs []Glob
	for _, p := range req.Patterns {
		g, err := Parse(p)
		if err != nil {
			return nil, err
		}
		want = append(want, Reservation{Agent: req.Agent, Repo: req.Repo.Top, RepoID: req.Repo.ID, Origin: req.Repo.Origin, Pattern: g.String(), Mode: req.Mode,
			Reason: req.Reason, Host: req.Host, Created: now.UTC(), Expires: now.Add(req.TTL).UTC()})
		wantGlobs = append(wantGlobs, g)
	}
	unlock, err := t.Lock(ctx, lockKey)
	if err != nil {
		return nil, err
	}
	defer unlock()
	all, _ := load(t)
	all = dropExpired(t, all, now)
	var clash []Reservation
	for _, h := range all {
		if !h.Active(now) {
			continue
		}
		g, err := Parse(h.Pattern)
		if err != nil {
			continue
		}
		for i, w := range want {
			if clashes(w, h, wantGlobs[i], g) {
				clash = append(clash, h)
				break
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
			if h.Agent == w.Agent && w.Where().Same(h.Repo, h.RepoID, h.Origin) && h.Pattern == w.Pattern && h.Active(now) {
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
		pats[i] = termsafe.Line(w.Pattern)
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
	s := fmt.Sprintf("%s holds %s (%s) until %s (%s left)", h.Agent, termsafe.Line(h.Pattern), h.Mode,
		h.Expires.UTC().Format(time.RFC3339), h.Expires.Sub(now).Round(time.Second))
	if h.Reason != "" {
		s += ": " + termsafe.Line(h.Reason)
	}
	return s
}

// Release releases the agent's active reservations in repo whose
// pattern is one of patterns (as Pattern returns them), or all of them
// when patterns is empty; a repo with no Top means every repository.
// A literal path also releases the folder form of it (path/**), which
// is what reserving it gave while it did not exist yet. Releasing what
// is not held is no error. It returns what it released.
func Release(ctx context.Context, t *fsutil.Tree, agent string, repo Where, patterns []string, now time.Time) ([]Reservation, error) {
	var norm []string
	for _, p := range patterns {
		g, err := Parse(p)
		if err != nil {
			return nil, err
		}
		norm = append(norm, g.String())
		if !hasMeta(g.String()) {
			norm = append(norm, g.String()+"/**")
		}
	}
	unlock, err := t.Lock(ctx, lockKey)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var done []Reservation
	rs, _ := loadAgent(t, agent, make([]byte, MaxFileSize+1))
	for _, r := range rs {
		if !r.Active(now) || repo.Top != "" && !repo.Same(r.Repo, r.RepoID, r.Origin) || len(norm) > 0 && !slices.Contains(norm, r.Pattern) {
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
func List(t *fsutil.Tree, now time.Time) []Reservation { return Scan(t, now).Active }

// MaxFileSize bounds the read of one reservation file. A reservation is
// a few hundred bytes (its longest parts are the reason and the
// pattern); a file bigger than this is not one, and is skipped unread
// past the limit, whatever a sync brought in.
const MaxFileSize = 64 << 10

// Skipped is a file of a reservations folder that was not taken for a
// reservation, and why.
type Skipped struct {
	Path string // relative to the store's root
	Why  string
}

func (s Skipped) String() string { return s.Path + ": " + s.Why }

// Set is the active reservations of a store, their patterns parsed once,
// for answering many questions about them.
type Set struct {
	Active  []Reservation // oldest agent folder first, then oldest file
	Skipped []Skipped     // files that are not reservations
	globs   []compiled    // Active's patterns, in the same order
}

type compiled struct {
	g      Glob
	ok     bool   // the pattern parsed
	prefix string // every path it matches starts with this
}

func compile(pattern string) compiled {
	g, err := Parse(pattern)
	if err != nil {
		return compiled{}
	}
	return compiled{g: g, ok: true, prefix: litPrefix(g.String())}
}

// litPrefix is the part of a normalised pattern before its first
// wildcard, without the slash before it: "src/**" matches "src" itself.
func litPrefix(p string) string {
	i := strings.IndexAny(p, "*?")
	if i < 0 {
		return p
	}
	return strings.TrimSuffix(p[:i], "/")
}

// Scan reads every agent's active reservations.
func Scan(t *fsutil.Tree, now time.Time) *Set {
	all, skipped := load(t)
	s := &Set{Skipped: skipped, Active: all[:0], globs: make([]compiled, 0, len(all))}
	for _, r := range all {
		if r.Active(now) {
			s.Active = append(s.Active, r)
			s.globs = append(s.globs, compile(r.Pattern))
		}
	}
	return s
}

// Holder returns the active exclusive reservation of another agent than
// agent covering rel (relative to the top level) in repo, if any: the one
// that refuses agent's edit.
func (s *Set) Holder(agent string, repo Where, rel string) (Reservation, bool) {
	var lit Glob
	for i, r := range s.Active {
		c := s.globs[i]
		if !c.ok || r.Agent == agent || r.Mode != Exclusive || !strings.HasPrefix(rel, c.prefix) || !repo.Same(r.Repo, r.RepoID, r.Origin) {
			continue
		}
		if lit.segs == nil {
			lit = literal(rel)
		}
		if Overlap(c.g, lit) {
			return r, true
		}
	}
	return Reservation{}, false
}

// HolderOf is Holder for a pattern (relative to the top level): the
// reservation of another agent that covers any path g matches.
func (s *Set) HolderOf(agent string, repo Where, g Glob) (Reservation, bool) {
	pre := litPrefix(g.String())
	for i, r := range s.Active {
		c := s.globs[i]
		if !c.ok || r.Agent == agent || r.Mode != Exclusive || !strings.HasPrefix(pre, c.prefix) && !strings.HasPrefix(c.prefix, pre) ||
			!repo.Same(r.Repo, r.RepoID, r.Origin) {
			continue
		}
		if Overlap(c.g, g) {
			return r, true
		}
	}
	return Reservation{}, false
}

// HeldByOthers reports whether an agent other than agent holds an
// active exclusive reservation.
func (s *Set) HeldByOthers(agent string) bool {
	for _, r := range s.Active {
		if r.Agent != agent && r.Mode == Exclusive {
			return true
		}
	}
	return false
}

// Conflicts returns the IDs of the active reservations that clash with
// another one: only possible after a sync merged two machines' grants.
func (s *Set) Conflicts() map[string]bool { return conflicts(s.Active, s.globs) }

// Conflicts is Set.Conflicts for a list of reservations.
func Conflicts(list []Reservation) map[string]bool {
	globs := make([]compiled, len(list))
	for i, r := range list {
		globs[i] = compile(r.Pattern)
	}
	return conflicts(list, globs)
}

// conflicts compares only the pairs that can clash: reservations of one
// repository whose literal prefixes are one a prefix of the other (two
// patterns matching a common path both start it). Sorted by prefix, the
// candidates of each reservation follow it in a run, so the work grows
// with the candidate pairs, not with the square of the list.
func conflicts(list []Reservation, globs []compiled) map[string]bool {
	bad := map[string]bool{}
	for _, group := range repoGroups(list) {
		slices.SortFunc(group, func(a, b int) int { return strings.Compare(globs[a].prefix, globs[b].prefix) })
		for x, i := range group {
			if !globs[i].ok {
				continue
			}
			for _, j := range group[x+1:] {
				if !strings.HasPrefix(globs[j].prefix, globs[i].prefix) {
					break
				}
				if globs[j].ok && clashes(list[i], list[j], globs[i].g, globs[j].g) {
					bad[list[i].ID], bad[list[j].ID] = true, true
				}
			}
		}
	}
	return bad
}

// repoGroups splits the indices of list into groups that no reservation
// of another group can share a repository with: those linked by an
// equal identity, origin or top level (clashes checks each pair).
func repoGroups(list []Reservation) [][]int {
	parent := make([]int, len(list))
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	byID, byOrigin, byTop := map[string]int{}, map[string]int{}, map[string]int{}
	for i, r := range list {
		parent[i] = i
		for _, k := range []struct {
			m   map[string]int
			key string
		}{{byID, r.RepoID}, {byOrigin, r.Origin}, {byTop, r.Repo}} {
			if k.key == "" {
				continue
			}
			if j, ok := k.m[k.key]; ok {
				parent[find(i)] = find(j)
			} else {
				k.m[k.key] = i
			}
		}
	}
	idx := map[int]int{}
	var groups [][]int
	for i := range list {
		root := find(i)
		g, ok := idx[root]
		if !ok {
			g = len(groups)
			idx[root] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	return groups
}

// load reads every agent's reservations, and names the files that are
// not reservations. Agents' folders are read by up to four workers: the
// files are small, and decoding them costs about what reading them does.
func load(t *fsutil.Tree) ([]Reservation, []Skipped) {
	names, err := t.ReadDirNames(".")
	if err != nil {
		return nil, nil
	}
	names = slices.DeleteFunc(names, func(n string) bool { return strings.HasPrefix(n, ".") })
	slices.Sort(names)
	type result struct {
		rs []Reservation
		sk []Skipped
	}
	results := make([]result, len(names))
	workers := min(4, len(names))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			stackstart.GrowDeep()
			buf := make([]byte, MaxFileSize+1)
			for {
				i := int(next.Add(1)) - 1
				if i >= len(names) {
					return
				}
				results[i].rs, results[i].sk = loadAgent(t, names[i], buf)
			}
		})
	}
	wg.Wait()
	n := 0
	for _, r := range results {
		n += len(r.rs)
	}
	out := make([]Reservation, 0, n)
	var skipped []Skipped
	for _, r := range results {
		out = append(out, r.rs...)
		skipped = append(skipped, r.sk...)
	}
	return out, skipped
}

// loadAgent reads one agent's reservations, oldest first, each through
// buf (MaxFileSize+1 bytes: a full buffer means a file too large).
// Files that vanish while it reads (a release sweeping expired ones) or
// are not regular files are passed over silently.
func loadAgent(t *fsutil.Tree, agent string, buf []byte) ([]Reservation, []Skipped) {
	dir := agent + "/" + Folder
	f, err := t.OpenFolder(dir)
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	names, err := f.RegularNames()
	if err != nil {
		return nil, nil
	}
	slices.Sort(names)
	released := map[string]bool{}
	for _, n := range names {
		if id, ok := strings.CutSuffix(n, releaseSuffix); ok {
			released[id] = true
		}
	}
	out := make([]Reservation, 0, len(names))
	var skipped []Skipped
	var in interner
	for _, n := range names {
		id, ok := strings.CutSuffix(n, recordSuffix)
		if !ok || strings.HasPrefix(n, ".") {
			continue
		}
		k, err := f.ReadStart(n, buf)
		if err != nil {
			continue
		}
		skip := func(why string) { skipped = append(skipped, Skipped{Path: dir + "/" + n, Why: why}) }
		if k > MaxFileSize {
			skip(fmt.Sprintf("larger than %d KiB, not a reservation", MaxFileSize>>10))
			continue
		}
		var r Reservation
		switch {
		case decode(buf[:k], &r, &in) != nil:
			skip("not a reservation (not its JSON)")
			continue
		case r.Agent != agent:
			skip(fmt.Sprintf("names agent %q, not the folder's", termsafe.Line(r.Agent)))
			continue
		case r.Expires.IsZero() || r.Pattern == "":
			skip("not a reservation (no pattern or expiry)")
			continue
		}
		r.ID, r.released = id, released[id]
		out = append(out, r)
	}
	return out, skipped
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
			_ = t.Remove(dir + r.ID + releaseSuffix) // best effort, as above
		}
	}
	return kept
}
