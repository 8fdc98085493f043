package trace

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
)

// ErrTooLarge marks a trace the collector will never take as it is: it
// answered 413, the request is over the exporter's size cap, or the
// upload outlasted the deadline. Send wraps it; the export parks such a
// trace instead of sending it again.
var ErrTooLarge = errors.New("too large for the collector")

// Ref names one session to export, with its client's transcript when
// known ("": looked for under ClaudeDir). Again sends it even when it
// was sent before: a session still running (Codex has no session end)
// is sent at each turn's end, the same IDs each time, so a backend
// takes each send as the same trace, grown.
type Ref struct {
	Agent, Session, Transcript string
	Again                      bool
}

// Export sends sessions' traces, one session per request: the sessions
// asked for, then every trace spooled in the store by an earlier export
// that could not send it. A trace that cannot be sent now is spooled for
// the next export; one the collector refuses as too large is parked; a
// sent session is marked and not sent again.
//
// At most one export sends from a store at a time: an export that finds
// another one running spools its traces for it and returns, and the
// running one sends them before it ends.
type Export struct {
	Tree      *fsutil.Tree
	Agents    []string  // whose sessions ended since Since to send
	Sessions  []Ref     // sessions to send by name
	Since     time.Time // zero: no sessions by age
	ClaudeDir string    // Claude Code's config folder, where transcripts are looked for
	Now       func() time.Time
	Send      func(context.Context, []Trace) error
	// LockWait is how long to wait for a running export before leaving
	// the traces to it (0: a moment).
	LockWait time.Duration
}

// Result counts what an export did. Deferred counts the traces left in
// the spool for an export that was running.
type Result struct {
	Sent, Spooled, Skipped, Parked, Deferred int
}

// lockKey names the store's export lock.
const lockKey = "trace-export"

// Run exports; the error says why traces were spooled.
func (e Export) Run(ctx context.Context) (Result, error) {
	var res Result
	built := time.Now() // a spool written later holds a newer trace than ours
	fresh, err := e.build(&res)
	if err != nil {
		return res, err
	}
	unlock, locked := e.lock(ctx)
	if !locked {
		// Another export runs: it sends what waits in the spool before
		// it ends, ours included. Should it have ended meanwhile, we
		// take the lock and send after all.
		for _, tr := range fresh {
			if err := Spool(ctx, e.Tree, tr); err != nil {
				return res, fmt.Errorf("spool %s/%s: %w", tr.Agent, tr.Session, err)
			}
			res.Deferred++
		}
		fresh = nil
		if unlock, locked = e.lock(ctx); !locked {
			return res, nil
		}
	}
	tried := map[string]time.Time{} // what was tried, by when it was read or built
	for {
		err := e.sendAll(ctx, fresh, built, tried, &res)
		unlock()
		if err != nil {
			return res, err
		}
		// A trace spooled by an export that found us running, after our
		// last look at the spool, is sent by us or by it.
		fresh = nil
		if len(e.waiting(tried)) == 0 {
			return res, nil
		}
		if unlock, locked = e.lock(ctx); !locked {
			return res, nil
		}
	}
}

// lock takes the store's export lock, waiting LockWait at most; ok is
// false when another export holds it. A lock that cannot be taken at
// all (its folder unusable) does not stop the export: it goes on
// unlocked rather than leave every trace in the spool for good.
func (e Export) lock(ctx context.Context) (unlock func(), ok bool) {
	wait, cancel := context.WithTimeout(ctx, max(e.LockWait, 20*time.Millisecond))
	defer cancel()
	unlock, err := e.Tree.Lock(wait, lockKey)
	switch {
	case err == nil:
		return unlock, true
	case wait.Err() != nil && ctx.Err() == nil:
		return nil, false // held by another export
	}
	return func() {}, true
}

// build makes the traces of the sessions asked for that are to be sent.
func (e Export) build(res *Result) ([]Trace, error) {
	refs := append([]Ref(nil), e.Sessions...)
	if !e.Since.IsZero() {
		for _, agent := range e.Agents {
			ended, err := Ended(e.Tree, agent, e.Since)
			if err != nil {
				return nil, err
			}
			for _, s := range ended {
				refs = append(refs, Ref{Agent: agent, Session: s})
			}
		}
	}
	var out []Trace
	seen := map[string]bool{}
	for _, r := range refs {
		if !events.ValidSession(r.Session) || !layout.ValidAgent(r.Agent) {
			return nil, fmt.Errorf("no session %q of %q: not a session id", r.Session, r.Agent)
		}
		key := r.Agent + "/" + r.Session
		if seen[key] || !r.Again && (Sent(e.Tree, r.Agent, r.Session) || Parked(e.Tree, r.Agent, r.Session)) {
			res.Skipped++
			continue
		}
		seen[key] = true
		if r.Transcript == "" && e.ClaudeDir != "" {
			r.Transcript = FindTranscript(e.ClaudeDir, r.Session)
		}
		s, err := Load(e.Tree, r.Agent, r.Session, r.Transcript)
		if err != nil {
			return nil, err
		}
		if len(s.Events) == 0 && len(s.Calls) == 0 {
			res.Skipped++ // nothing recorded: no trace to send
			continue
		}
		out = append(out, Build(s))
	}
	return out, nil
}

// queued is a trace to send, and when it was read or built.
type queued struct {
	Trace
	read time.Time
}

// waiting is the spooled traces in the store, whoever's, not tried yet
// or spooled again since they were (a session grown meanwhile).
func (e Export) waiting(tried map[string]time.Time) []queued {
	names, _ := e.Tree.ReadDirNames(".") // an unreadable store has nothing waiting
	slices.Sort(names)
	var out []queued
	for _, agent := range names {
		if !layout.ValidAgent(agent) || !e.Tree.IsDir(Dir(agent)) {
			continue
		}
		for _, session := range spooledSessions(e.Tree, agent) {
			tr, at, ok := readSpooled(e.Tree, agent, session)
			if last, seen := tried[agent+"/"+session]; ok && (!seen || at.After(last)) {
				out = append(out, queued{tr, at})
			}
		}
	}
	return out
}

// sendAll sends fresh (built at built), then what waits in the spool, a
// session at a time, until one fails for a reason other than its size:
// then the collector is taken to be out of reach, and the fresh traces
// not sent are spooled.
func (e Export) sendAll(ctx context.Context, fresh []Trace, built time.Time, tried map[string]time.Time, res *Result) error {
	var queue []queued
	for _, tr := range fresh {
		queue = append(queue, queued{tr, built})
	}
	queue = append(queue, e.waiting(tried)...)
	for _, q := range queue {
		tried[q.Agent+"/"+q.Session] = q.read
	}
	for i, q := range queue {
		err := e.Send(ctx, []Trace{q.Trace})
		switch {
		case err == nil:
			if err := MarkSent(e.Tree, q.Agent, q.Session, e.Now(), q.read); err != nil {
				return err
			}
			res.Sent++
		case errors.Is(err, ErrTooLarge):
			if err := Park(ctx, e.Tree, q.Trace, err); err != nil {
				return err
			}
			res.Parked++
		default:
			var errs []error
			for _, left := range fresh[min(i, len(fresh)):] { // the rest of the queue is in the spool already
				if newerSpooled(e.Tree, left, built) {
					continue // the session grown since waits there already
				}
				if serr := Spool(ctx, e.Tree, left); serr != nil {
					errs = append(errs, fmt.Errorf("spool %s/%s: %w", left.Agent, left.Session, serr))
					continue
				}
				res.Spooled++
			}
			return errors.Join(append([]error{fmt.Errorf("%d trace(s) not sent, kept in the store for the next export: %w",
				len(queue)-i, err)}, errs...)...)
		}
	}
	return nil
}

// newerSpooled reports whether the spool holds tr's session written
// after at.
func newerSpooled(t *fsutil.Tree, tr Trace, at time.Time) bool {
	fi, err := t.Lstat(Dir(tr.Agent) + "/" + tr.Session + spoolExt)
	return err == nil && fi.ModTime().After(at)
}
