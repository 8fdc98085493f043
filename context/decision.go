package context

import (
	"strings"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/message"
)

// Entry is one decision as written to decisions/<ms>-<rand6>.md.
type Entry struct {
	Filename string // the entry's file name
	Line     string // the line, without its final newline
}

// TimeLayout is the UTC timestamp form of decision lines.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// CheckDecision validates the two texts of an entry and returns them
// normalised: trimmed, one trailing period removed. The error messages are
// the CLI's, also reported by the MCP server.
func CheckDecision(decision, why string) (d, w string, err error) {
	d, w = jsstr.TrimSpace(decision), jsstr.TrimSpace(why)
	if d == "" {
		return "", "", sterr.Msg("--decision is required and cannot be empty")
	}
	if w == "" {
		return "", "", sterr.Msg("--why is required and cannot be empty")
	}
	if strings.ContainsAny(d+w, "\n\r") {
		return "", "", sterr.Msg("context append: --decision and --why must be single lines. Multi-line reasoning belongs in a doc; the log is a scannable list.")
	}
	return strings.TrimSuffix(d, "."), strings.TrimSuffix(w, "."), nil
}

// Append writes one decision entry stamped at now.
func Append(t *fsutil.Tree, id, decision, why string, now time.Time) (Entry, error) {
	return AppendStamped(t, id, decision, why, now.UTC().Format(TimeLayout), now)
}

// AppendStamped writes one decision entry whose line carries stamp
// verbatim; the file is named after stamp's time, or after now when stamp
// does not parse.
func AppendStamped(t *fsutil.Tree, id, decision, why, stamp string, now time.Time) (Entry, error) {
	d, w, err := CheckDecision(decision, why)
	if err != nil {
		return Entry{}, err
	}
	line := "- " + stamp + " " + d + ". why: " + w + "."
	at := now
	if ts, ok := ParseTime(stamp); ok {
		at = ts
	}
	dir := id + "/context/decisions"
	if err := t.MkdirAll(dir); err != nil {
		return Entry{}, err
	}
	name, err := t.Deliver(dir, []byte(line+"\n"), func() string { return message.NewName(at) })
	if err != nil {
		return Entry{}, err
	}
	return Entry{Filename: name, Line: line}, nil
}

// ParseTime parses RFC 3339 timestamps with or without fraction or zone
// offset, and bare dates (UTC midnight).
func ParseTime(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04", "2006-01-02"} {
		if ts, err := time.Parse(layout, s); err == nil {
			return ts, true
		}
	}
	return time.Time{}, false
}
