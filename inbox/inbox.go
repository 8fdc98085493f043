// Package inbox delivers, lists, reads and archives messages in
// <root>/<agent>/{inbox,archive}/.
//
// Many writers, one owner: any agent may deliver into another's inbox/,
// only the owner moves files from inbox/ to archive/. Delivery is
// create-only (fsutil.Deliver), so a reader never sees a partial message
// and nothing is ever overwritten; archive moves never replace an archive
// copy, which is the tombstone that stops sync from resurrecting a
// message. Readers take only deliverable names and regular files, so
// temp files, sync tools' conflict copies, FIFOs and symlinks are never
// read as messages.
package inbox

import (
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/message"
)

// Folder names inside an agent's folder.
const (
	Inbox   = "inbox"
	Archive = "archive"
)

// Send delivers m into to's inbox (created if needed, archive/ is not)
// and returns the new file's name.
func Send(t *fsutil.Tree, to string, m message.Message, now time.Time) (string, error) {
	dir := to + "/" + Inbox
	if err := t.MkdirAll(dir); err != nil {
		return "", err
	}
	return t.Deliver(dir, m.Bytes(), func() string { return message.NewName(now) })
}
