package trace

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// The trace folder of an agent, $ST_ROOT/<agent>/traces/, holds
// <session>.json, a trace that could not be sent yet (the spool),
// <session>.sent, the mark of one that was, <session>.parked, a trace the
// collector refused as too large (kept for the person, never sent again),
// and export.log, a line for each trace parked or dropped. An export sends
// what is spooled first and never sends a marked or parked session again.
// Only the host the agent lives on writes them (its hooks and `st trace
// export`).

// Dir is agent's trace folder, relative to the store.
func Dir(agent string) string { return agent + "/traces" }

const (
	spoolExt  = ".json"
	sentExt   = ".sent"
	parkedExt = ".parked"
	logName   = "export.log"
)

// MaxEvents bounds how much of a session's event log a trace reads: a
// longer log gives the trace of its last MaxEvents bytes.
const MaxEvents = 32 << 20

// maxSpooled bounds one spooled trace: a bigger one is never written,
// since it would not be read back.
const maxSpooled = 16 << 20

// MaxSpool bounds how many traces wait in an agent's spool: spooling
// one more drops the oldest, with a line in export.log.
const MaxSpool = 100

// Load reads agent's session from the store and, when transcript names
// the client's transcript of it, its model calls and those of its
// subagents (Claude Code keeps a subagent's transcript at
// <transcript without .jsonl>/subagents/agent-<id>.jsonl).
func Load(t *fsutil.Tree, agent, session, transcript string) (Session, error) {
	evs, err := events.Tail(t, agent, session, MaxEvents)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Session{}, err
	}
	s := Session{Agent: agent, ID: session, Events: evs}
	if transcript == "" {
		return s, nil
	}
	main := readTranscriptFile(transcript)
	s.Calls, s.Turns, s.Tools = main.Calls, main.Turns, main.Tools
	dir := strings.TrimSuffix(transcript, ".jsonl") + string(filepath.Separator) + "subagents"
	for _, sub := range events.Subagents(evs) {
		if calls := readCalls(filepath.Join(dir, "agent-"+filepath.Base(sub.ID)+".jsonl")); len(calls) > 0 {
			if s.SubCalls == nil {
				s.SubCalls = map[string][]ModelCall{}
			}
			s.SubCalls[sub.ID] = calls
		}
	}
	return s, nil
}

// readCalls reads the model calls of the transcript at path (none when
// it cannot be read). Only a regular file is read: a FIFO or a device
// named as the transcript would block the export for ever.
func readCalls(path string) []ModelCall { return readTranscriptFile(path).Calls }

// readTranscriptFile reads the transcript at path, a regular file only
// (empty when it cannot be read).
func readTranscriptFile(path string) Transcript {
	f, _, err := fsutil.OpenRegular(path)
	if err != nil {
		return Transcript{}
	}
	defer func() { _ = f.Close() }() // read-only
	return readTranscript(f)
}

// FindTranscript is Claude Code's transcript of session under its
// config folder (projects/<project>/<session>.jsonl), or "" when there
// is none.
func FindTranscript(claudeDir, session string) string {
	if !events.ValidSession(session) {
		return ""
	}
	matches, _ := filepath.Glob(filepath.Join(claudeDir, "projects", "*", session+".jsonl"))
	if len(matches) == 0 {
		return ""
	}
	return matches[0]
}

// Spool keeps tr in the store until it can be sent, dropping the oldest
// spooled traces beyond MaxSpool. A trace too big to be read back is
// not kept (ErrTooLarge).
func Spool(ctx context.Context, t *fsutil.Tree, tr Trace) error {
	if !events.ValidSession(tr.Session) {
		return fmt.Errorf("not a session id: %q", tr.Session)
	}
	data, err := json.Marshal(tr)
	if err != nil {
		return err
	}
	if err := t.MkdirAll(Dir(tr.Agent)); err != nil {
		return err
	}
	if len(data) > maxSpooled {
		err := fmt.Errorf("%w: %d bytes, more than the spool keeps", ErrTooLarge, len(data))
		logLine(ctx, t, tr.Agent, fmt.Sprintf("dropped the trace of session %s: %v", tr.Session, err))
		return err
	}
	if err := t.WriteAtomic(Dir(tr.Agent)+"/"+tr.Session+spoolExt, data); err != nil {
		return err
	}
	return trimSpool(ctx, t, tr.Agent)
}

// trimSpool drops agent's oldest spooled traces beyond MaxSpool.
func trimSpool(ctx context.Context, t *fsutil.Tree, agent string) error {
	type spooled struct {
		session string
		at      time.Time
	}
	var all []spooled
	for _, session := range spooledSessions(t, agent) {
		if fi, err := t.Lstat(Dir(agent) + "/" + session + spoolExt); err == nil {
			all = append(all, spooled{session, fi.ModTime()})
		}
	}
	if len(all) <= MaxSpool {
		return nil
	}
	slices.SortFunc(all, func(a, b spooled) int { return a.at.Compare(b.at) })
	for _, old := range all[:len(all)-MaxSpool] {
		if err := t.Remove(Dir(agent) + "/" + old.session + spoolExt); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		logLine(ctx, t, agent, fmt.Sprintf("dropped the spooled trace of session %s (spooled %s): the spool keeps %d", old.session,
			old.at.UTC().Format(time.RFC3339), MaxSpool))
	}
	return nil
}

// Park sets tr aside for good with why: the collector refuses it (too
// large), so it is not sent again with the others; the trace stays in
// <session>.parked for the person, and export.log says why.
func Park(ctx context.Context, t *fsutil.Tree, tr Trace, why error) error {
	if !events.ValidSession(tr.Session) {
		return fmt.Errorf("not a session id: %q", tr.Session)
	}
	if err := t.MkdirAll(Dir(tr.Agent)); err != nil {
		return err
	}
	base := Dir(tr.Agent) + "/" + tr.Session
	data, err := json.Marshal(tr)
	if err == nil && len(data) <= maxSpooled {
		err = t.WriteAtomic(base+parkedExt, data)
	} else {
		err = t.WriteAtomic(base+parkedExt, nil) // the mark alone: the trace would not be read back
	}
	if err != nil {
		return err
	}
	if err := t.Remove(base + spoolExt); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	logLine(ctx, t, tr.Agent, fmt.Sprintf("parked the trace of session %s (%d spans), not sent again: %v", tr.Session, len(tr.Spans), why))
	return nil
}

// Parked reports whether agent's session was parked.
func Parked(t *fsutil.Tree, agent, session string) bool { return marked(t, agent, session, parkedExt) }

// logLine appends a line to agent's export.log; a log that cannot be
// written loses the line, never the export.
func logLine(ctx context.Context, t *fsutil.Tree, agent, text string) {
	line := time.Now().UTC().Format(time.RFC3339) + " " + strings.ReplaceAll(text, "\n", " ") + "\n"
	_ = t.AppendLine(ctx, Dir(agent)+"/"+logName, []byte(line))
}

// MarkSent records that agent's session was sent and drops its spooled
// copy, unless the spool was written after read (when the trace sent
// was read or built): a newer copy, spooled by an export that found
// this one running, is the session grown since, still to send.
func MarkSent(t *fsutil.Tree, agent, session string, at, read time.Time) error {
	if !events.ValidSession(session) {
		return fmt.Errorf("not a session id: %q", session)
	}
	if err := t.MkdirAll(Dir(agent)); err != nil {
		return err
	}
	base := Dir(agent) + "/" + session
	if err := t.WriteAtomic(base+sentExt, []byte(at.UTC().Format(time.RFC3339)+"\n")); err != nil {
		return err
	}
	if fi, err := t.Lstat(base + spoolExt); err != nil || fi.ModTime().After(read) {
		return nil
	}
	if err := t.Remove(base + spoolExt); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Sent reports whether agent's session was sent.
func Sent(t *fsutil.Tree, agent, session string) bool { return marked(t, agent, session, sentExt) }

// marked reports whether agent's trace folder holds session's file
// ending in ext.
func marked(t *fsutil.Tree, agent, session, ext string) bool {
	if !events.ValidSession(session) {
		return false
	}
	_, err := t.Lstat(Dir(agent) + "/" + session + ext)
	return err == nil
}

// Spooled reads agent's spooled traces, oldest session name first; a
// file that is not a trace is skipped.
func Spooled(t *fsutil.Tree, agent string) []Trace {
	var out []Trace
	for _, session := range spooledSessions(t, agent) {
		if tr, _, ok := readSpooled(t, agent, session); ok {
			out = append(out, tr)
		}
	}
	return out
}

// spooledSessions lists the sessions in agent's spool, sorted.
func spooledSessions(t *fsutil.Tree, agent string) []string {
	names, err := t.ReadDirNames(Dir(agent))
	if err != nil {
		return nil
	}
	slices.Sort(names)
	var out []string
	for _, name := range names {
		if session, ok := strings.CutSuffix(name, spoolExt); ok && events.ValidSession(session) {
			out = append(out, session)
		}
	}
	return out
}

// readSpooled reads agent's spooled trace of session, and when it was
// written.
func readSpooled(t *fsutil.Tree, agent, session string) (Trace, time.Time, bool) {
	rel := Dir(agent) + "/" + session + spoolExt
	if fi, err := t.Lstat(rel); err != nil || fi.Size() > maxSpooled {
		return Trace{}, time.Time{}, false
	}
	data, fi, err := t.ReadRegular(rel)
	if err != nil {
		return Trace{}, time.Time{}, false
	}
	var tr Trace
	if json.Unmarshal(data, &tr) != nil || tr.Agent != agent || tr.Session != session || tr.TraceID == "" {
		return Trace{}, time.Time{}, false
	}
	return tr, fi.ModTime(), true
}

// Ended lists agent's sessions whose log was last written at or after
// since and holds a SessionEnd line, oldest first.
func Ended(t *fsutil.Tree, agent string, since time.Time) ([]string, error) {
	recs, err := events.Read(t, agent, events.Filter{Since: since})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range recs {
		if r.Event.Event == "SessionEnd" && r.Event.Session != "" && !slices.Contains(out, r.Event.Session) {
			out = append(out, r.Event.Session)
		}
	}
	return out, nil
}
