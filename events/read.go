package events

import (
	"bytes"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// Record is one parsed line with its raw bytes (for --json output, which
// prints lines verbatim) and the log file it came from.
type Record struct {
	Event
	Raw  []byte
	File string
}

// Filter selects records: Session (when non-empty) keeps one session's
// log; Since (when non-zero) keeps events at or after that time.
type Filter struct {
	Session string
	Since   time.Time
}

// wantFile reports whether the log named name can hold records for f.
func (f Filter) wantFile(name string) bool {
	if !IsLogName(name) {
		return false
	}
	return f.Session == "" || name == FileName(f.Session)
}

// keep reports whether a parsed event passes f (the session is chosen
// by file).
func (f Filter) keep(e *Event) bool {
	if !f.Since.IsZero() {
		t, _ := e.Time()
		if t.Before(f.Since) {
			return false
		}
	}
	return true
}

// IsLogName reports whether name is a session log (not a dot-file, a
// temp or a sync tool's conflict copy).
func IsLogName(name string) bool {
	base, ok := strings.CutSuffix(name, Ext)
	return ok && (base == NoSession || ValidSession(base))
}

// dirNames lists agent's events folder, sorted; none when it is missing.
func dirNames(t *fsutil.Tree, agent string) ([]string, error) {
	if t == nil {
		return nil, nil
	}
	names, err := t.ReadDirNames(Dir(agent))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	return names, nil
}

// Read returns the records of agent's logs passing f, oldest first. Files
// last written before f.Since are not opened.
func Read(t *fsutil.Tree, agent string, f Filter) ([]Record, error) {
	folder, names, err := openLogs(t, agent)
	if err != nil || folder == nil {
		return nil, err
	}
	defer folder.Close()
	var out []Record
	for _, name := range writtenSince(folder, names, f.Since) {
		if !f.wantFile(name) {
			continue
		}
		data, err := folder.ReadRegular(name)
		if err != nil {
			continue // a FIFO, a symlink or a vanished file is no log
		}
		out = appendRecords(out, data, name, f)
	}
	sortRecords(out)
	return out, nil
}

func appendRecords(out []Record, data []byte, file string, f Filter) []Record {
	for _, line := range Lines(data) {
		e, ok := Parse(line)
		if !ok || !f.keep(&e) {
			continue
		}
		out = append(out, Record{Event: e, Raw: line, File: file})
	}
	return out
}

// sortRecords orders records by time; ties keep file and line order.
func sortRecords(rs []Record) {
	slices.SortStableFunc(rs, func(a, b Record) int { return strings.Compare(a.TS, b.TS) })
}

// TailBytes bounds what the hooks read of a log: its last 64 KiB.
const TailBytes = 64 << 10

// Tail returns the events in the last max bytes of one session's log,
// oldest first; a first line cut by the bound is dropped.
func Tail(t *fsutil.Tree, agent, session string, max int64) ([]Event, error) {
	return TailFile(t, Path(agent, session), max)
}

// TailFile is Tail for a log given by its path relative to the root.
func TailFile(t *fsutil.Tree, rel string, max int64) ([]Event, error) {
	data, err := readTail(t, rel, max)
	if err != nil {
		return nil, err
	}
	n := bytes.Count(data, []byte{'\n'})
	if n == 0 {
		return nil, nil
	}
	out := make([]Event, 0, n) // one allocation, decoded into in place
	for line := range eachLine(data) {
		out = out[:len(out)+1]
		if !parseInto(line, &out[len(out)-1]) {
			out = out[:len(out)-1]
		}
	}
	return out, nil
}

// backStep is how much of a log EachBack reads first: a turn or two of
// a busy session, enough for most readers that stop early.
const backStep = 8 << 10

// EachBack calls fn with each event in the last max bytes of the log at
// rel, newest first, until fn returns false: the events TailFile
// returns, in the other order. It reads the newest backStep bytes
// first and the rest of the bound only when fn asks for more, so a
// reader that is answered by the newest lines reads and decodes a
// fraction of the bound. A line keep (when not nil) turns down is
// skipped undecoded: decoding is most of the cost. The Event is reused
// from one call to the next: fn keeps what it needs of it, not the
// pointer.
func EachBack(t *fsutil.Tree, rel string, max int64, keep func(line []byte) bool, fn func(*Event) bool) error {
	data, fi, err := t.ReadTail(rel, min(max, backStep))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	bound := fi.Size() - max // where the bound cuts the log (<= 0: it does not)
	at := fi.Size() - int64(len(data))
	cut := 0 // data[:cut] ends a line that starts before data does
	if at > 0 {
		cut = len(data)
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			cut = i + 1
		}
	}
	b := backScan{keep: keep, fn: fn}
	if !b.lines(data[cut:]) || at <= bound || at == 0 {
		return nil
	}
	start := bound
	if start < 0 {
		start = 0
	}
	rest, _, err := t.ReadRange(rel, start, at+int64(cut)-start)
	if err != nil {
		return err
	}
	if start > 0 { // the bound cuts the first line
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			return nil
		}
		rest = rest[i+1:]
	}
	b.lines(rest)
	return nil
}

// backScan is one EachBack.
type backScan struct {
	keep func([]byte) bool
	fn   func(*Event) bool
	e    Event
}

// lines decodes data's complete lines newest first and calls fn with
// each event, until it returns false (then so does lines); a last line
// without "\n" is skipped.
func (b *backScan) lines(data []byte) bool {
	end := bytes.LastIndexByte(data, '\n')
	if end < 0 {
		return true
	}
	data = data[:end]
	for {
		i := bytes.LastIndexByte(data, '\n')
		line := data[i+1:]
		if (b.keep == nil || b.keep(line)) && parseInto(line, &b.e) && !b.fn(&b.e) {
			return false
		}
		if i < 0 {
			return true
		}
		data = data[:i]
	}
}

// readTail reads the last max bytes of the log at rel without a first
// line the bound cut; a missing log reads as empty.
func readTail(t *fsutil.Tree, rel string, max int64) ([]byte, error) {
	data, fi, err := t.ReadTail(rel, max)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if int64(len(data)) < fi.Size() {
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
		} else {
			data = nil
		}
	}
	return data, nil
}

// openLogs opens agent's events folder and lists its session logs,
// regular files, sorted: an agent keeps a log per session, so each is
// then stated or read through the open folder, where a path through the
// tree would open the agent's folder and its events folder again for
// each one. A missing folder gives a nil folder and no error.
func openLogs(t *fsutil.Tree, agent string) (*fsutil.Folder, []string, error) {
	if t == nil {
		return nil, nil, nil
	}
	folder, err := t.OpenFolder(Dir(agent))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	names, err := folder.RegularNames()
	if err != nil {
		_ = folder.Close() // opened for reading only
		return nil, nil, err
	}
	names = slices.DeleteFunc(names, func(n string) bool { return !IsLogName(n) })
	slices.Sort(names)
	return folder, names, nil
}

// writtenSince keeps the names of folder last written at or after since
// (all of them when since is zero).
func writtenSince(folder *fsutil.Folder, names []string, since time.Time) []string {
	if since.IsZero() {
		return names
	}
	return slices.DeleteFunc(names, func(name string) bool {
		at, regular := folder.ModTime(name)
		return !regular || at.Before(since)
	})
}

// WrittenSince returns the names of agent's session logs, regular files,
// last written at or after since (every one when since is zero), sorted;
// none when it has no events folder.
func WrittenSince(t *fsutil.Tree, agent string, since time.Time) ([]string, error) {
	folder, names, err := openLogs(t, agent)
	if err != nil || folder == nil {
		return nil, err
	}
	defer folder.Close()
	return writtenSince(folder, names, since), nil
}

// LogInfo is one of an agent's session logs: its name in the events
// folder, its size and when it was last written.
type LogInfo struct {
	Name    string
	Size    int64
	ModTime time.Time
}

// Logs lists agent's session logs, regular files, sorted by name, each
// stated through the open events folder; none when it has no events
// folder.
func Logs(t *fsutil.Tree, agent string) ([]LogInfo, error) {
	folder, names, err := openLogs(t, agent)
	if err != nil || folder == nil {
		return nil, err
	}
	defer folder.Close()
	logs := make([]LogInfo, 0, len(names))
	for _, name := range names {
		if size, at, regular := folder.Regular(name); regular {
			logs = append(logs, LogInfo{Name: name, Size: size, ModTime: at})
		}
	}
	return logs, nil
}

// Latest returns the path (relative to the root) and modification time
// of agent's most recently written session log; ok is false when it has
// none.
func Latest(t *fsutil.Tree, agent string) (rel string, mtime time.Time, ok bool) {
	folder, names, err := openLogs(t, agent)
	if err != nil || folder == nil {
		return "", time.Time{}, false
	}
	defer folder.Close()
	for _, name := range names {
		if at, regular := folder.ModTime(name); regular && (!ok || at.After(mtime)) {
			rel, mtime, ok = Dir(agent)+"/"+name, at, true
		}
	}
	return rel, mtime, ok
}

// Prune removes agent's session logs and their hook state files last
// written before cutoff, and returns the names removed.
func Prune(t *fsutil.Tree, agent string, cutoff time.Time) ([]string, error) {
	names, err := dirNames(t, agent)
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, name := range names {
		if !IsLogName(name) && !IsStateName(name) {
			continue
		}
		rel := Dir(agent) + "/" + name
		fi, err := t.Lstat(rel)
		if err != nil || !fi.Mode().IsRegular() || !fi.ModTime().Before(cutoff) {
			continue
		}
		if err := t.Remove(rel); err != nil {
			return removed, err
		}
		removed = append(removed, name)
	}
	return removed, nil
}

// StatePath is the path of a per-session hook state file named kind
// (e.g. "state", "retry"): a dot-file next to the session's log, so sync
// tools skip it and Prune ages it out with the log.
func StatePath(agent, session, kind string) string {
	return Dir(agent) + "/." + strings.TrimSuffix(FileName(session), Ext) + "." + kind + ".json"
}

// IsStateName reports whether name is a state file made by StatePath.
func IsStateName(name string) bool {
	rest, ok := strings.CutPrefix(name, ".")
	if !ok {
		return false
	}
	rest, ok = strings.CutSuffix(rest, ".json")
	if !ok {
		return false
	}
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 {
		return false
	}
	base, kind := rest[:i], rest[i+1:]
	return (base == NoSession || ValidSession(base)) && kind != "" && !strings.ContainsAny(kind, "/")
}
