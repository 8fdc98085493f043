package fleet

import (
	"encoding/hex"
	"path/filepath"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/sha256"
)

// An agent's home is where it writes its own state: a host claims the
// agents that wrote there, not whatever it found in its root when it
// first synced (a message for bob that reaches host A first does not
// make bob live on A). Each own write (status, context, a hook of the
// agent's session, a message it sends) touches a mark kept on the
// machine, outside the root, so no sync ever carries it:
//
//	<state dir>/st-homes/<key>/ROOT     the root's absolute path
//	<state dir>/st-homes/<key>/<agent>  its time is the agent's newest write here
//
// <key> is the first 16 hex digits of the SHA-256 of the root's absolute
// path (symlinks resolved), as for the Codex hooks' cursors. The state
// dir is $XDG_STATE_HOME (else ~/.local/state), resolved by the caller.

// homesDir is the marks' folder under the state dir.
const homesDir = "st-homes"

// MarkEvery is how stale a mark may get before an own write refreshes it:
// writes in between cost one stat.
const MarkEvery = time.Minute

// homeKey names root's folder of marks.
func homeKey(root string) (key, abs string) {
	abs, err := filepath.Abs(root)
	if err != nil {
		abs = filepath.Clean(root)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	sum := sha256.Sum256([]byte(abs))
	return hex.EncodeToString(sum[:8]), abs
}

// MarkHome records that agent (a valid agent name) wrote its own state
// in root on this machine at now. It is cheap when the mark is fresh (a
// stat) and best effort: an error only means the claim is not refreshed.
// A new mark is written durably, as it is what claims the agent; an
// existing one only has its time moved (refreshMark).
func MarkHome(stateDir, root, agent string, now time.Time) error {
	if stateDir == "" || agent == "" {
		return nil
	}
	key, abs := homeKey(root)
	dir := filepath.Join(stateDir, homesDir)
	if refreshed, err := refreshMark(dir, key+"/"+agent, now); refreshed {
		return err
	}
	t, err := fsutil.OpenOrCreate(dir)
	if err != nil {
		return err
	}
	defer t.Close()
	if err := t.MkdirAll(key); err != nil {
		return err
	}
	if _, err := t.Stat(key + "/ROOT"); err != nil {
		if err := t.WriteAtomic(key+"/ROOT", []byte(abs+"\n")); err != nil {
			return err
		}
	}
	return t.WriteAtomic(key+"/"+agent, nil)
}

// refreshMark moves the time of the mark rel under dir to now, unless it
// is fresh; refreshed is false when there is no mark to refresh. The
// mark is touched in place, without the two fsyncs of a rewrite, which
// the first hook after a minute's pause paid (1.4–1.7 ms on this
// project's machine, docs/performance.md). A crash that loses the new
// time leaves the mark and its older time, which the agent's next own
// write refreshes; what claims the agent is the mark itself (Claimed).
func refreshMark(dir, rel string, now time.Time) (refreshed bool, err error) {
	t, err := fsutil.Open(dir)
	if err != nil {
		return false, nil
	}
	defer t.Close()
	fi, err := t.Stat(rel)
	if err != nil || !fi.Mode().IsRegular() {
		return false, nil
	}
	if d := now.Sub(fi.ModTime()); d >= 0 && d < MarkEvery {
		return true, nil
	}
	return true, t.Touch(rel, now)
}

// HomeMarks maps each agent with a mark for root on this machine to the
// time of its newest own write (unix ms). None when stateDir is "".
func HomeMarks(stateDir, root string) map[string]int64 {
	out := map[string]int64{}
	if stateDir == "" {
		return out
	}
	key, _ := homeKey(root)
	t, err := fsutil.Open(filepath.Join(stateDir, homesDir, key))
	if err != nil {
		return out
	}
	defer t.Close()
	ents, err := t.ReadDir(".")
	if err != nil {
		return out
	}
	for _, e := range ents {
		if e.Name() == "ROOT" || !e.Type().IsRegular() {
			continue
		}
		if fi, err := e.Info(); err == nil {
			out[e.Name()] = fi.ModTime().UnixMilli()
		}
	}
	return out
}

// Unmark removes agent's mark for root on this machine, unless the agent
// wrote again since the mark read seen (unix ms, HomeMarks): the host
// gives the agent up (Claimed), and the agent's next own write here
// claims it anew. Best effort.
func Unmark(stateDir, root, agent string, seen int64) {
	if stateDir == "" {
		return
	}
	key, _ := homeKey(root)
	t, err := fsutil.Open(filepath.Join(stateDir, homesDir, key))
	if err != nil {
		return
	}
	defer t.Close()
	if fi, err := t.Stat(agent); err == nil && fi.ModTime().UnixMilli() == seen {
		_ = t.Remove(agent) // best effort, as the doc says
	}
}
