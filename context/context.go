// Package context keeps an agent's restart state under
// <root>/<agent>/context/: now.md, a whole-file snapshot replaced
// atomically on every write (last writer wins), and decisions/, one file
// per entry delivered without replacing anything, so entries written on
// two machines merge cleanly through sync. Reads never create anything.
//
// Import it as agentctx: the name clashes with the standard library's.
package context

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsstr"
)

// NowPath returns the slash path of now.md relative to the root.
func NowPath(id string) string { return id + "/context/now.md" }

// ReadNow returns now.md verbatim; ok is false when it is missing or
// unreadable.
func ReadNow(t *fsutil.Tree, id string) (text string, ok bool) {
	if t == nil {
		return "", false
	}
	data, _, err := t.ReadRegular(NowPath(id))
	if err != nil {
		return "", false
	}
	return toValidUTF8(data), true
}

// ReadNowHead is the first n bytes of now.md, for a reader that wants
// only its beginning (the dashboard's line of it): a now.md of any size
// costs at most n bytes.
func ReadNowHead(t *fsutil.Tree, id string, n int64) (text string, ok bool) {
	if t == nil {
		return "", false
	}
	data, _, err := t.ReadRange(NowPath(id), 0, n)
	if err != nil {
		return "", false
	}
	return toValidUTF8(data), true
}

// ReadNowWithin is ReadNow of a now.md of at most limit bytes: a bigger
// one is not read, and size reports how big it is (0 otherwise).
func ReadNowWithin(t *fsutil.Tree, id string, limit int64) (text string, size int64, ok bool) {
	if t == nil {
		return "", 0, false
	}
	data, fi, err := t.ReadRange(NowPath(id), 0, limit+1)
	if err != nil {
		return "", 0, false
	}
	if fi.Size() > limit {
		return "", fi.Size(), true
	}
	return toValidUTF8(data), 0, true
}

// NowBytes returns the exact bytes WriteNow stores for body: invalid
// UTF-8 replaced by U+FFFD and a final newline ensured.
func NowBytes(body []byte) []byte {
	if !utf8.Valid(body) {
		body = bytes.ToValidUTF8(body, []byte("\uFFFD"))
	}
	if len(body) == 0 || body[len(body)-1] != '\n' {
		body = append(body[:len(body):len(body)], '\n')
	}
	return body
}

// WriteNow replaces now.md with body (see NowBytes), creating context/,
// and returns the number of bytes written.
func WriteNow(t *fsutil.Tree, id string, body []byte) (int, error) {
	data := NowBytes(body)
	if err := t.MkdirAll(id + "/context"); err != nil {
		return 0, err
	}
	if err := t.WriteAtomic(NowPath(id), data); err != nil {
		return 0, err
	}
	return len(data), nil
}

// Decisions returns the decision log: the legacy context/decisions.md
// first (when it has content), then every *.md in decisions/ by name,
// each with trailing whitespace removed, empty ones dropped, joined with
// newlines plus a final newline. ok is false when there is nothing.
func Decisions(t *fsutil.Tree, id string) (text string, ok bool) {
	return DecisionsWithin(t, id, -1, nil)
}

// DecisionsWithin is Decisions reading only entries of at most limit
// bytes (any size when negative); each bigger one is replaced by what
// tooLarge says of its size.
func DecisionsWithin(t *fsutil.Tree, id string, limit int64, tooLarge func(size int64) string) (text string, ok bool) {
	if t == nil {
		return "", false
	}
	var parts []string
	if data, err := readDecisionsFile(t, id+"/context/decisions.md", limit, tooLarge); err == nil {
		if s := jsstr.TrimRightSpace(toValidUTF8(data)); s != "" {
			parts = append(parts, s)
		}
	}
	// One decision per file, so the folder grows with the agent's age:
	// each is read through the folder opened once (four system calls a
	// file), not by a path walked from the store's root again (fourteen).
	if dir, err := t.OpenFolder(id + "/context/decisions"); err == nil {
		parts = append(parts, readDecisionFiles(dir, limit, tooLarge)...)
		_ = dir.Close() // opened for reading only
	}
	if len(parts) == 0 {
		return "", false
	}
	return strings.Join(parts, "\n") + "\n", true
}

// readDecisionsFile reads the legacy decisions.md whole (limit < 0), or
// at most limit bytes, else what tooLarge says of its size.
func readDecisionsFile(t *fsutil.Tree, rel string, limit int64, tooLarge func(size int64) string) ([]byte, error) {
	if limit < 0 {
		data, _, err := t.ReadRegular(rel)
		return data, err
	}
	data, fi, err := t.ReadRange(rel, 0, limit+1)
	if err == nil && fi.Size() > limit {
		return []byte(tooLarge(fi.Size())), nil
	}
	return data, err
}

// readDecisionFiles reads every *.md regular file of the decisions
// folder in name order, each with trailing whitespace removed and empty
// ones dropped; a file over limit bytes (when limit >= 0) is replaced by
// what tooLarge says of its size.
func readDecisionFiles(dir *fsutil.Folder, limit int64, tooLarge func(size int64) string) []string {
	names, _ := dir.RegularNames()
	slices.Sort(names)
	readLimit := limit // whole files when negative
	if limit >= 0 {
		readLimit = limit + 1 // one byte more tells a file over limit
	}
	var parts []string
	for _, n := range names {
		if !strings.HasSuffix(n, ".md") {
			continue
		}
		data, size, err := dir.ReadPrefix(n, readLimit)
		if err != nil {
			continue
		}
		if limit >= 0 && size > limit {
			data = []byte(tooLarge(size))
		}
		if s := jsstr.TrimRightSpace(toValidUTF8(data)); s != "" {
			parts = append(parts, s)
		}
	}
	return parts
}

// Full returns now.md and the decisions under headings, as
// `st context read --full` prints them; ok is false when both are absent.
func Full(t *fsutil.Tree, id string) (text string, ok bool) {
	return FullWithin(t, id, -1, nil)
}

// FullWithin is Full reading only files of at most limit bytes (any
// size when negative); each bigger one is replaced by what tooLarge says
// of its size.
func FullWithin(t *fsutil.Tree, id string, limit int64, tooLarge func(size int64) string) (text string, ok bool) {
	var now string
	var hasNow bool
	if limit < 0 {
		now, hasNow = ReadNow(t, id)
	} else {
		var size int64
		if now, size, hasNow = ReadNowWithin(t, id, limit); size > 0 {
			now = tooLarge(size) + "\n"
		}
	}
	dec, hasDec := DecisionsWithin(t, id, limit, tooLarge)
	var parts []string
	if hasNow {
		parts = append(parts, "# now.md", now)
	}
	if hasDec {
		if hasNow {
			parts = append(parts, "")
		}
		parts = append(parts, "# decisions/", dec)
	}
	if len(parts) == 0 {
		return "", false
	}
	return strings.Join(parts, "\n"), true
}

func toValidUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
}
