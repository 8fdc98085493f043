package inbox

import (
	"errors"
	"io/fs"
	"slices"
	"time"

	"github.com/smalltalk-go/st/internal/duration"
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
		age, err := duration.Parse(*o.OlderThan)
		if err != nil {
			return TrimResult{}, err
		}
		cutoff := float64(o.Now.UnixMilli()) - float64(age.Milliseconds())
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
			_ = t.Remove(dir + "/" + f) // best effort, like upstream: the next trim tries again
		}
	}
	return res, nil
}
