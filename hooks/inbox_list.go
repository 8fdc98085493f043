package hooks

import (
	"errors"
	"io/fs"
	"slices"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/message"
)

// item is one inbox entry as `st message ls --json` reports it, reduced
// to what the hooks print.
type item struct {
	Filename string
	TS       float64 // unix ms: the name's stamp, or an outside file's mtime
	From     *string // nil when absent or empty
	Subject  *string
}

// listInbox lists the deliverable files in id's inbox, byte-sorted, with
// ts >= since (since < 0: all). A missing inbox holds nothing.
func listInbox(root, id string, since float64) ([]item, error) {
	t, err := fsutil.Open(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer t.Close()
	dir := id + "/inbox"
	names, err := t.ReadDirNames(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	var items []item
	for _, n := range names {
		switch {
		case message.IsCanonical(n):
			it := item{Filename: n, TS: float64(message.Timestamp(n))}
			if since >= 0 && it.TS < since {
				continue
			}
			if data, _, err := t.ReadRegular(dir + "/" + n); err == nil {
				f, _, _ := message.Parse(string(data))
				it.From, it.Subject = nonEmpty(f["from"]), nonEmpty(f["subject"])
			}
			items = append(items, it)
		case message.IsOutside(n):
			fi, err := t.Stat(dir + "/" + n)
			if err != nil {
				continue
			}
			mt := fi.ModTime()
			it := item{Filename: n, TS: float64(mt.Unix())*1000 + float64(mt.Nanosecond())/1e6, From: nonEmpty("outside")}
			if since >= 0 && it.TS < since {
				continue
			}
			items = append(items, it)
		}
	}
	return items, nil
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
