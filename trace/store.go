package trace

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// The trace folder of an agent, $ST_ROOT/<agent>/traces/, holds
// <session>.json, a trace that could not be sent yet (the spool), and
// <session>.sent, the mark of one that was: an export sends what is
// spooled first and never sends a marked session again. Only the host the
// agent lives on writes them (its SessionEnd hook and `st trace export`).

// Dir is agent's trace folder, relative to the store.
func Dir(agent string) string { return agent + "/traces" }

const (
	spoolExt = ".json"
	sentExt  = ".sent"
)

// MaxEvents bounds how much of a session's event log a trace reads: a
// longer log gives the trace of its last MaxEvents bytes.
const MaxEvents = 32 << 20

// maxSpooled bounds one spooled trace read back.
const maxSpooled = 64 << 20

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
	s.Calls = readCalls(transcript)
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
// it cannot be read).
func readCalls(path string) []ModelCall {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer func() { _ = f.Close() }() // read-only
	return ReadTranscript(f)
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

// Spool keeps tr in the store until it can be sent.
func Spool(t *fsutil.Tree, tr Trace) error {
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
	return t.WriteAtomic(Dir(tr.Agent)+"/"+tr.Session+spoolExt, data)
}

// MarkSent records that agent's session was sent and drops its spooled
// copy.
func MarkSent(t *fsutil.Tree, agent, session string, at time.Time) error {
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
	if err := t.Remove(base + spoolExt); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Sent reports whether agent's session was sent.
func Sent(t *fsutil.Tree, agent, session string) bool {
	if !events.ValidSession(session) {
		return false
	}
	_, err := t.Lstat(Dir(agent) + "/" + session + sentExt)
	return err == nil
}

// Spooled reads agent's spooled traces, oldest session name first; a
// file that is not a trace is skipped.
func Spooled(t *fsutil.Tree, agent string) []Trace {
	names, err := t.ReadDirNames(Dir(agent))
	if err != nil {
		return nil
	}
	slices.Sort(names)
	var out []Trace
	for _, name := range names {
		if !strings.HasSuffix(name, spoolExt) || strings.HasPrefix(name, ".") {
			continue
		}
		rel := Dir(agent) + "/" + name
		if fi, err := t.Lstat(rel); err != nil || fi.Size() > maxSpooled {
			continue
		}
		data, _, err := t.ReadRegular(rel)
		if err != nil {
			continue
		}
		var tr Trace
		if json.Unmarshal(data, &tr) == nil && tr.Agent == agent && tr.TraceID != "" {
			out = append(out, tr)
		}
	}
	return out
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
