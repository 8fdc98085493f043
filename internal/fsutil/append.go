package fsutil

import (
	"os"
	"time"
)

// Append adds data at the end of rel, creating it if needed. It is for
// logs only: appends are not atomic, so a crash can leave a partial last
// line, which a log tolerates. Like AppendLine it moves the file's
// modification time past the previous one (NextModTime).
func (t *Tree) Append(rel string, data []byte) error {
	f, err := t.root.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_APPEND, filePerm)
	if err != nil {
		return err
	}
	var prev time.Time
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		prev = fi.ModTime()
	}
	if _, err := f.Write(data); err != nil {
		closeQuietly(f)
		return err
	}
	if err := setModTime(f, NextModTime(prev, time.Now())); err != nil {
		closeQuietly(f)
		return err
	}
	return f.Close()
}
