package trace

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
)

// Ref names one session to export, with its client's transcript when
// known ("": looked for under ClaudeDir).
type Ref struct {
	Agent, Session, Transcript string
}

// Export sends sessions' traces: every trace spooled by an earlier
// export that could not send it, then the sessions asked for. A batch
// that cannot be sent is spooled in the store, whole, for the next
// export; a sent session is marked and never sent again.
type Export struct {
	Tree      *fsutil.Tree
	Agents    []string  // whose spooled traces, and sessions ended since Since, to send
	Sessions  []Ref     // sessions to send by name
	Since     time.Time // zero: no sessions by age
	ClaudeDir string    // Claude Code's config folder, where transcripts are looked for
	Now       func() time.Time
	Send      func(context.Context, []Trace) error
}

// Result counts what an export did.
type Result struct {
	Sent, Spooled, Skipped int
}

// Run exports; the error says why the batch was spooled.
func (e Export) Run(ctx context.Context) (Result, error) {
	var res Result
	var batch, fresh []Trace
	seen := map[string]bool{}
	for _, agent := range e.Agents {
		for _, tr := range Spooled(e.Tree, agent) {
			seen[tr.Agent+"/"+tr.Session] = true
			batch = append(batch, tr)
		}
	}
	refs := append([]Ref(nil), e.Sessions...)
	if !e.Since.IsZero() {
		for _, agent := range e.Agents {
			ended, err := Ended(e.Tree, agent, e.Since)
			if err != nil {
				return res, err
			}
			for _, s := range ended {
				refs = append(refs, Ref{Agent: agent, Session: s})
			}
		}
	}
	for _, r := range refs {
		if !events.ValidSession(r.Session) || !layout.ValidAgent(r.Agent) {
			return res, fmt.Errorf("no session %q of %q: not a session id", r.Session, r.Agent)
		}
		key := r.Agent + "/" + r.Session
		if seen[key] || Sent(e.Tree, r.Agent, r.Session) {
			res.Skipped++
			continue
		}
		seen[key] = true
		if r.Transcript == "" && e.ClaudeDir != "" {
			r.Transcript = FindTranscript(e.ClaudeDir, r.Session)
		}
		s, err := Load(e.Tree, r.Agent, r.Session, r.Transcript)
		if err != nil {
			return res, err
		}
		if len(s.Events) == 0 && len(s.Calls) == 0 {
			res.Skipped++ // nothing recorded: no trace to send
			continue
		}
		tr := Build(s)
		batch, fresh = append(batch, tr), append(fresh, tr)
	}
	if len(batch) == 0 {
		return res, nil
	}
	if err := e.Send(ctx, batch); err != nil {
		for _, tr := range fresh {
			if serr := Spool(e.Tree, tr); serr != nil {
				return res, errors.Join(err, fmt.Errorf("spool %s/%s: %w", tr.Agent, tr.Session, serr))
			}
			res.Spooled++
		}
		return res, fmt.Errorf("%d trace(s) not sent, kept in the store for the next export: %w", len(batch), err)
	}
	for _, tr := range batch {
		if err := MarkSent(e.Tree, tr.Agent, tr.Session, e.Now()); err != nil {
			return res, err
		}
		res.Sent++
	}
	return res, nil
}
