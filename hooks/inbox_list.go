package hooks

import (
	"errors"
	"io/fs"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// item is one inbox entry exactly as `st message ls --json` reports it.
type item = inbox.Item

// listInbox lists the deliverable files in id's inbox, byte-sorted, with
// ts >= since (since < 0: all), through the same code as `message ls`.
// A missing root or inbox holds nothing.
func listInbox(root, id string, since float64) ([]item, error) {
	t, err := fsutil.Open(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer t.Close()
	f := inbox.Filter{}
	if since >= 0 {
		f.Since = &since
	}
	items, err := inbox.Items(t, id, inbox.Inbox, f)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return items, err
}
