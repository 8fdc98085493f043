package inbox

import (
	"io/fs"
	"slices"
	"strconv"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/message"
)

// regularNames returns the names of the regular files in folder dir,
// byte-sorted. Dot-files (temp files of st, rsync and renameio), FIFOs,
// symlinks and folders are left out, so nothing a reader opens can block
// or lead elsewhere. A nil tree reads as a missing folder.
func regularNames(t *fsutil.Tree, dir string) ([]string, error) {
	if t == nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: fs.ErrNotExist}
	}
	folder, err := t.OpenFolder(dir)
	if err != nil {
		return nil, err
	}
	defer folder.Close()
	names, err := folder.RegularNames()
	if err != nil {
		return nil, err
	}
	names = slices.DeleteFunc(names, func(n string) bool { return n[0] == '.' })
	sortNames(names)
	return names, nil
}

// isRegular reports whether rel is a regular file (a final symlink is not
// followed).
func isRegular(t *fsutil.Tree, rel string) bool {
	if t == nil {
		return false
	}
	fi, err := t.Lstat(rel)
	return err == nil && fi.Mode().IsRegular()
}

// List returns the deliverable names (canonical and outside) in
// <id>/<folder>, byte-sorted, which for canonical names is chronological.
// The inbox's archived twins are left out (WithoutTwins). A missing
// folder gives an fs.ErrNotExist error.
func List(t *fsutil.Tree, id, folder string) ([]string, error) {
	names, err := regularNames(t, id+"/"+folder)
	if err != nil {
		return nil, err
	}
	names = slices.DeleteFunc(names, func(n string) bool { return !message.IsDeliverable(n) })
	if folder == Inbox {
		names = WithoutTwins(t, id, names)
	}
	return names, nil
}

// Filter narrows a listing the way `message ls` does.
type Filter struct {
	// Since keeps items whose ts is at least *Since (unix ms); nil keeps all.
	Since *float64
	// From keeps canonical files whose frontmatter from equals it exactly;
	// the value "outside" keeps outside files instead. Empty keeps all.
	From string
}

// Item is one listed message, as `message ls --json` prints it.
type Item struct {
	Filename string `json:"filename"`
	// TS is the filename's timestamp (an integer) for canonical names and
	// the file's mtime in fractional milliseconds for outside files.
	TS        float64  `json:"ts"`
	From      *string  `json:"from"`
	Subject   *string  `json:"subject"`
	InReplyTo *string  `json:"inReplyTo"`
	Tags      []string `json:"tags"`
	Priority  *string  `json:"priority"`
}

// Select returns the deliverable names in <id>/<folder> that pass f, in
// byte order. Only canonical files are read, and only when f.From is set.
func Select(t *fsutil.Tree, id, folder string, f Filter) ([]string, error) {
	var kept []string
	err := eachEntry(t, id, folder, f, false,
		func(n int) { kept = make([]string, n) },
		func(i int, e *entry) { kept[i] = e.name })
	return slices.DeleteFunc(kept, func(n string) bool { return n == "" }), err
}

// Items is Select with each file's frontmatter projected (§6.4).
func Items(t *fsutil.Tree, id, folder string, f Filter) ([]Item, error) {
	var items []Item
	err := eachEntry(t, id, folder, f, true,
		func(n int) { items = make([]Item, n) },
		func(i int, e *entry) { items[i] = e.item() })
	return slices.DeleteFunc(items, func(it Item) bool { return it.Filename == "" }), err
}

// readCanonical returns the head (readHead) of every canonical name in
// folder dir (unreadable ones and other names read as ""), index for
// index.
func readCanonical(t *fsutil.Tree, dir string, names []string) []string {
	texts := make([]string, len(names))
	forCanonical(t, dir, names, func(i int, text string) { texts[i] = text })
	return texts
}

// forCanonical calls fn with the index and head (readHead) of every
// canonical name in folder dir ("" when unreadable); the names come from
// regularNames, whose types the reads trust. Large folders are read by a
// few goroutines, through one handle on the folder; fn must only touch
// index i.
func forCanonical(t *fsutil.Tree, dir string, names []string, fn func(i int, text string)) {
	readCanonicalWith(t, dir, names, func() reader { return newHeadReader(headFirst, HeadMax) }, fn)
}

// reader reads a file of a folder into a buffer it keeps: the bytes are
// its until its next read. One per goroutine.
type reader interface {
	read(folder *fsutil.Folder, name string) ([]byte, error)
}

// readCanonicalWith is forCanonical with the text a reader of each
// goroutine (newReader) returns.
func readCanonicalWith(t *fsutil.Tree, dir string, names []string, newReader func() reader, fn func(i int, text string)) {
	folder, err := t.OpenFolder(dir)
	if err != nil {
		for i, n := range names {
			if message.IsCanonical(n) {
				fn(i, "")
			}
		}
		return
	}
	defer folder.Close()
	inChunks(len(names), func() func(i int) {
		r := newReader()
		return func(i int) {
			if !message.IsCanonical(names[i]) {
				return
			}
			var text string
			if data, err := r.read(folder, names[i]); err == nil {
				text = Text(data)
			}
			fn(i, text)
		}
	})
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// mtimeMs is Node's mtimeMs of rel: fractional milliseconds, 0 when the
// file vanished.
func mtimeMs(t *fsutil.Tree, rel string) float64 {
	fi, err := t.Lstat(rel)
	if err != nil {
		return 0
	}
	return MtimeMs(fi)
}

// MtimeMs returns a file's modification time as Node's mtimeMs computes
// it: float64(sec)*1000 + float64(nsec)/1e6.
func MtimeMs(fi fs.FileInfo) float64 {
	mt := fi.ModTime()
	return float64(mt.Unix())*1000 + float64(mt.Nanosecond())/1e6
}

// Orphans returns the attachments in <id>/<folder> whose prefix has no
// canonical .md in the same folder, byte-sorted; since (when not nil)
// keeps those whose prefix timestamp is at least *since.
func Orphans(t *fsutil.Tree, id, folder string, since *float64) ([]string, error) {
	names, err := regularNames(t, id+"/"+folder)
	if err != nil {
		return nil, err
	}
	if folder == Inbox {
		names = WithoutTwins(t, id, names)
	}
	messages := map[string]bool{}
	for _, n := range names {
		if message.IsCanonical(n) {
			messages[n[:20]] = true
		}
	}
	orphans := []string{}
	for _, n := range names {
		prefix, ok := message.Prefix(n)
		if !ok || message.IsCanonical(n) || messages[prefix] {
			continue
		}
		if since != nil {
			ts, _ := strconv.ParseFloat(prefix[:13], 64)
			if ts < *since {
				continue
			}
		}
		orphans = append(orphans, n)
	}
	return orphans, nil
}
