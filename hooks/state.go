package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// State is what the hooks remember about one session between runs: a
// dot-file next to its event log (events.StatePath kind "state").
type State struct {
	ContextWarned   int   `json:"context_warned,omitempty"`    // highest context level announced
	FlushRemindedMS int64 `json:"flush_reminded_ms,omitempty"` // when the last flush reminder went out
	InboxCheckedMS  int64 `json:"inbox_checked_ms,omitempty"`  // inbox arrivals before this were told (Stop)
	// ChannelNoted are inbox filenames the model got as channel blocks
	// since the last Stop (channel.go); Stop does not announce them.
	ChannelNoted []string `json:"channel_noted,omitempty"`
	// StatusBefore is the agent's status before an API failure set it to
	// StatusFailed (failure_status.go); Stop puts it back.
	StatusBefore string `json:"status_before,omitempty"`
	StatusFailed string `json:"status_failed,omitempty"`
	// Nudges counts the stop judge's nudges of the prompt NudgePrompt
	// names (a hash, or Claude Code's prompt_id); NudgeChain is set while
	// a nudged continuation runs, so its Stop is left alone (stop_judge.go).
	Nudges      int    `json:"nudges,omitempty"`
	NudgePrompt string `json:"nudge_prompt,omitempty"`
	NudgeChain  bool   `json:"nudge_chain,omitempty"`
}

// UpdateState reads a session's state, lets fn change it, and writes it
// back if fn reports a change, all under the session's lock. A missing
// or unreadable state starts empty.
//
// Most of the state is hints, written without fsyncs (fsutil.WriteHint):
// a crash that loses the last write only repeats something (the inbox
// cursor announces a message twice, a context warning or a flush
// reminder is given again, a nudge is counted once less) or, with the
// state gone, takes the inbox cursor back to the session's start
// (arrivals.go), the messages staying in the inbox. Those fsyncs were most of Stop's own time. The status from
// before an API failure is not a hint (without it the failure's status
// would stay): while the state holds one, or when it changes, the state
// is written durably, since a write without fsyncs can leave the whole
// file empty after a crash.
func UpdateState(ctx context.Context, t *fsutil.Tree, agent, session string, fn func(*State) bool) error {
	rel := events.StatePath(agent, session, "state")
	unlock, err := t.Lock(ctx, "hookstate-"+lockName(agent, session))
	if err != nil {
		return err
	}
	defer unlock()
	var s State
	if data, err := readSmall(t, rel); err == nil {
		_ = json.Unmarshal(data, &s) // absent or malformed: the zero value is the answer
	}
	before, failed := s.StatusBefore, s.StatusFailed
	if !fn(&s) {
		return nil
	}
	data, _ := json.Marshal(&s)
	write := t.WriteHint
	if s.StatusBefore != "" || s.StatusBefore != before || s.StatusFailed != failed {
		write = t.WriteAtomic
	}
	return writeState(t, agent, rel, data, write)
}

// changeState is UpdateState for a hook whose fn most often changes
// nothing (a prompt with no warning to give): fn first runs on the
// state read without the lock, and only when it reports a change does
// UpdateState run it again, under the lock, on the state as it is then.
// When it reports none, fn must have changed nothing but the State it
// was given: most prompts then take no lock, open no lock file.
func changeState(ctx context.Context, t *fsutil.Tree, agent, session string, fn func(*State) bool) error {
	s, _ := peekState(t, agent, session) // absent or malformed: the zero value, as UpdateState reads it
	if !fn(&s) {
		return nil
	}
	return UpdateState(ctx, t, agent, session, fn)
}

// writeState replaces a state file with write, creating the events
// folder if needed.
func writeState(t *fsutil.Tree, agent, rel string, data []byte, write func(string, []byte) error) error {
	err := write(rel, data)
	if errors.Is(err, fs.ErrNotExist) {
		if err := t.MkdirAll(events.Dir(agent)); err != nil {
			return err
		}
		err = write(rel, data)
	}
	return err
}

// peekState reads a session's state without its lock, for a hook that
// writes only when what it reads calls for a change; ok is false when
// the state is absent, unreadable or malformed.
func peekState(t *fsutil.Tree, agent, session string) (s State, ok bool) {
	data, err := readSmall(t, events.StatePath(agent, session, "state"))
	if err != nil || json.Unmarshal(data, &s) != nil {
		return State{}, false
	}
	return s, true
}

// lockName is a lock key for one session of one agent.
func lockName(agent, session string) string {
	return agent + "-" + events.FileName(session)
}

// maxStateBytes bounds the hooks' own small files (state, retry streak,
// last stop-failure): a bigger one is not theirs, and reads as absent.
const maxStateBytes = 1 << 20

// readSmall reads the regular file rel when it holds at most
// maxStateBytes.
func readSmall(t *fsutil.Tree, rel string) ([]byte, error) {
	data, fi, err := t.ReadRange(rel, 0, maxStateBytes+1)
	if err != nil {
		return nil, err
	}
	if fi.Size() > maxStateBytes {
		return nil, fsutil.ErrTooLarge
	}
	return data, nil
}
