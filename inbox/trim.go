package inbox

import (
	"errors"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/message"
)

// TrimOptions selects what Trim deletes from an archive.
type TrimOptions struct {
	// OlderThan is a duration like 90d, 12h or 2w (nil: not given):
	// canonical files whose timestamp is strictly older are victims.
	OlderThan *string
	// KeepLast keeps the newest N canonical files (nil: not given); the
	// rest are victims. The two criteria are united.
	KeepLast *int
	// WithAttachments adds the archive attachments of the victims.
	WithAttachments bool
	// DryRun reports the victims without deleting anything.
	DryRun bool
	// Now is the clock the durations count back from.
	Now time.Time
}

// TrimResult lists what was (or would be) deleted. Attachments is nil
// unless attachments were requested and the archive could be read.
type TrimResult struct {
	Victims     []string
	Attachments []string
}

// ErrTrimCriteria is returned when neither criterion is given.
// (New, not Msg: no fmt.Sprintf at start-up.)
var ErrTrimCriteria = sterr.New("", "trim requires --older-than DURATION or --keep-last N", nil)

// ErrKeepLast is returned for a negative KeepLast.
var ErrKeepLast = sterr.New("", "--keep-last must be a non-negative integer", nil)

// durationUnit returns the seconds in a duration unit (a switch, not a
// package-level map, which would be built at every start).
func durationUnit(unit byte) (float64, bool) {
	switch unit {
	case 's':
		return 1, true
	case 'm':
		return 60, true
	case 'h':
		return 3600, true
	case 'd':
		return 86400, true
	case 'w':
		return 604800, true
	}
	return 0, false
}

// ParseDuration reads ^([0-9]+)([smhdw])$ as a number of seconds, or
// returns INVALID_DURATION.
func ParseDuration(spec string) (float64, error) {
	if len(spec) >= 2 {
		digits, unit := spec[:len(spec)-1], spec[len(spec)-1]
		if perUnit, ok := durationUnit(unit); ok && strings.Trim(digits, "0123456789") == "" {
			n, _ := strconv.ParseFloat(digits, 64) // huge values become +Inf, as in JavaScript
			return n * perUnit, nil
		}
	}
	return 0, sterr.New(sterr.InvalidDuration,
		"invalid duration: "+spec+" (use e.g. 90d, 12h, 2w)", map[string]any{"value": spec})
}

// Trim deletes old canonical files (and optionally their attachments)
// from id's archive, best effort. Only the archive is touched: the inbox
// is the agent's to-do list. A missing archive has nothing to trim, and
// then OlderThan is not even validated (as upstream); an archive that
// exists but cannot be listed is an error, not an empty archive.
func Trim(t *fsutil.Tree, id string, o TrimOptions) (TrimResult, error) {
	if o.OlderThan == nil && o.KeepLast == nil {
		return TrimResult{}, ErrTrimCriteria
	}
	if o.KeepLast != nil && *o.KeepLast < 0 {
		return TrimResult{}, ErrKeepLast
	}
	dir := id + "/" + Archive
	names, err := regularNames(t, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return TrimResult{Victims: []string{}}, nil
	}
	if err != nil {
		return TrimResult{}, err
	}
	var files []string
	for _, n := range names {
		if message.IsCanonical(n) {
			files = append(files, n)
		}
	}
	victim := map[string]bool{}
	if o.OlderThan != nil {
		secs, err := ParseDuration(*o.OlderThan)
		if err != nil {
			return TrimResult{}, err
		}
		cutoff := float64(o.Now.UnixMilli()) - secs*1000
		for _, f := range files {
			if float64(message.Timestamp(f)) < cutoff {
				victim[f] = true
			}
		}
	}
	if o.KeepLast != nil && len(files) > *o.KeepLast {
		for _, f := range files[:len(files)-*o.KeepLast] {
			victim[f] = true
		}
	}
	res := TrimResult{Victims: slices.DeleteFunc(files, func(f string) bool { return !victim[f] })}
	if res.Victims == nil {
		res.Victims = []string{}
	}
	if o.WithAttachments {
		prefixes := map[string]bool{}
		for _, v := range res.Victims {
			prefixes[v[:20]] = true
		}
		res.Attachments = []string{}
		for _, n := range names {
			if p, ok := message.Prefix(n); ok && !message.IsCanonical(n) && prefixes[p] {
				res.Attachments = append(res.Attachments, n)
			}
		}
	}
	if !o.DryRun {
		for _, f := range append(slices.Clone(res.Victims), res.Attachments...) {
			t.Remove(dir + "/" + f) // best effort, like upstream
		}
	}
	return res, nil
}
