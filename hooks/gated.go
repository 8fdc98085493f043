package hooks

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"io/fs"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/sha256"
)

// The subagents the gate sent back, per session: one line each, a hash
// of the agent_id (17 bytes whatever the id), appended and never
// trimmed, so that a subagent is sent back at most once however many the
// session starts (a bounded list forgot the older ones and sent them back
// again). A state file (events.StatePath): Prune ages it out with the log.

// gatedPath is the session's record of the subagents the gate sent back.
func gatedPath(agent, session string) string { return events.StatePath(agent, session, "gated") }

// gatedLine is the record's line for the subagent agentID.
func gatedLine(agentID string) []byte {
	sum := sha256.Sum256([]byte(agentID))
	return []byte(hex.EncodeToString(sum[:8]) + "\n")
}

// wasGated reports whether the gate sent agentID back in session.
func wasGated(t *fsutil.Tree, agent, session, agentID string) bool {
	data, _, err := t.ReadRegular(gatedPath(agent, session))
	if err != nil {
		return false
	}
	line := gatedLine(agentID)
	for i := 0; i+len(line) <= len(data); i += len(line) {
		if bytes.Equal(data[i:i+len(line)], line) {
			return true
		}
	}
	return false
}

// markGated records that the gate sends agentID back, under the
// session's state lock; false when it was recorded already (a concurrent
// SubagentStop of the same subagent sent it back).
func markGated(ctx context.Context, t *fsutil.Tree, agent, session, agentID string) (bool, error) {
	unlock, err := t.Lock(ctx, "hookstate-"+lockName(agent, session))
	if err != nil {
		return false, err
	}
	defer unlock()
	if wasGated(t, agent, session, agentID) {
		return false, nil
	}
	rel := gatedPath(agent, session)
	err = t.Append(rel, gatedLine(agentID))
	if errors.Is(err, fs.ErrNotExist) {
		if err := t.MkdirAll(events.Dir(agent)); err != nil {
			return false, err
		}
		err = t.Append(rel, gatedLine(agentID))
	}
	return err == nil, err
}
