// Package status reads and writes an agent's one-line status file
// (<root>/<agent>/status). Writes replace the file atomically; the state a
// reader sees is derived from the content and the file's age, so an agent
// that stopped refreshing it reads as "unknown".
package status

import (
	"errors"
	"io/fs"
	"strings"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/internal/sterr"
)

// StaleAfter is how old a status file may be before it reads as unknown.
const StaleAfter = 15 * time.Minute

// Settable are the states `st status --set` accepts, in message order.
var Settable = []string{"offline", "available", "busy", "away", "dnd"}

// Readable are the states a status file may hold: the settable ones and
// unknown, which is derived and never written by --set.
// A literal, not built from Settable: a package-level value built by code
// is work every st start does (TestReadableIsSettableAndUnknown).
var Readable = []string{"offline", "available", "busy", "away", "dnd", "unknown"}

// IsSettable reports whether s is one of Settable.
func IsSettable(s string) bool { return contains(Settable, s) }

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// ErrInvalidState is the error for a state --set does not accept.
func ErrInvalidState(value string) error {
	return sterr.New(sterr.InvalidState, "state must be one of: offline, available, busy, away, dnd",
		map[string]any{"value": value})
}

// Effective returns the state of agent id at time now: offline with no
// file, unknown when the file is older than StaleAfter (checked before
// the content), else the first line with every whitespace character
// removed when it names a state, and offline otherwise.
func Effective(t *fsutil.Tree, id string, now time.Time) string {
	if t == nil {
		return "offline"
	}
	data, fi, err := t.ReadRange(id+"/status", 0, MaxFileBytes)
	if fi != nil && now.Sub(fi.ModTime()) > StaleAfter {
		return "unknown"
	}
	if err != nil {
		return "offline"
	}
	return Normalize(string(data))
}

// MaxFileBytes is how much of a status file is read: its first line is
// one word, so a big file (planted, or synced from a peer) costs no more.
const MaxFileBytes = 4 << 10

// Normalize reads a state out of status file content.
func Normalize(content string) string {
	line, _, _ := strings.Cut(content, "\n")
	s := strings.Map(func(r rune) rune {
		if jsstr.IsSpace(r) {
			return -1
		}
		return r
	}, line)
	if contains(Readable, s) {
		return s
	}
	return "offline"
}

// Set validates state and writes "<state>\n" atomically. The agent's
// folder must exist.
func Set(t *fsutil.Tree, id, state string) error {
	if !IsSettable(state) {
		return ErrInvalidState(state)
	}
	return t.WriteAtomic(id+"/status", []byte(state+"\n"))
}

// SetAtExit writes state as Set does, readers seeing the old state or
// the new, but without Set's two fsyncs: it is for the state a process
// leaves as it exits ("offline"), where those fsyncs were a tenth of
// st-mcp's whole run. A crash of the machine that loses the write ends
// that process too, and every outcome reads true: the old state goes
// stale (unknown), an empty or missing file reads as offline.
func SetAtExit(t *fsutil.Tree, id, state string) error {
	if !IsSettable(state) {
		return ErrInvalidState(state)
	}
	return t.WriteHint(id+"/status", []byte(state+"\n"))
}

// Refresh bumps a live status so it does not go stale: a missing file
// becomes available, a settable state is rewritten as is, anything else
// is left alone. Errors are returned for logging; callers swallow them.
func Refresh(t *fsutil.Tree, id string) error {
	data, _, err := t.ReadRange(id+"/status", 0, MaxFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return t.WriteAtomic(id+"/status", []byte("available\n"))
	}
	if err != nil {
		return err
	}
	line, _, _ := strings.Cut(string(data), "\n")
	if s := jsstr.TrimSpace(line); IsSettable(s) {
		return t.WriteAtomic(id+"/status", []byte(s+"\n"))
	}
	return nil
}
