package fsutil

import "os"

// Append adds data at the end of rel, creating it if needed. It is for
// logs only: appends are not atomic, so a crash can leave a partial last
// line, which a log tolerates. Like AppendLine it stamps the file with
// the tree's clock.
func (t *Tree) Append(rel string, data []byte) error {
	f, err := t.root.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_APPEND, filePerm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		closeQuietly(f)
		return err
	}
	if err := setModTime(f, t.now()); err != nil {
		closeQuietly(f)
		return err
	}
	return f.Close()
}
