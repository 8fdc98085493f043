package wiring

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsonobj"
)

// Restored is what an uninstall writes instead of data, the file
// re-serialised without st's hooks: the byte-exact backup kept at the
// first install (<path>.st-backup) when it holds the same document, so
// that install then uninstall with nothing else changed leaves the
// user's file as it was, indentation and all; else data.
func (s *Settings) Restored(data []byte) []byte {
	backup, err := os.ReadFile(s.Path + ".st-backup")
	if err != nil {
		return data
	}
	v, err := jsonobj.ParseKeepNumbers(backup)
	if err != nil {
		return data
	}
	was, err1 := jsonobj.Marshal(v)
	now, err2 := jsonobj.Marshal(s.Doc)
	if err1 != nil || err2 != nil || !bytes.Equal(was, now) {
		return data
	}
	return backup
}

// CreatedByUs reports whether an uninstall leaves nothing of a file st
// created: the document is empty and no backup of a file from before
// st's first install exists.
func (s *Settings) CreatedByUs() bool {
	if s.Doc.Len() > 0 {
		return false
	}
	_, err := os.Lstat(s.Path + ".st-backup")
	return errors.Is(err, fs.ErrNotExist)
}

// RemoveCreated removes the settings file st created, and its folder
// when that is left empty (a project's .gemini/ or .claude/ made for it).
func RemoveCreated(path string) error {
	dir, name := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	t, err := fsutil.Open(dir)
	if err != nil {
		return err
	}
	err = t.Remove(name)
	t.Close()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	parent, base := filepath.Split(filepath.Clean(dir))
	if parent == "" {
		parent = "."
	}
	pt, err := fsutil.Open(parent)
	if err != nil {
		return nil // the file is gone; its folder stays
	}
	defer pt.Close()
	if names, err := pt.ReadDirNames(base); err == nil && len(names) == 0 {
		_ = pt.Remove(base) // best effort: an empty folder left behind harms nothing
	}
	return nil
}

// hasComments reports whether data is JSON with // or /* */ comments
// (which Gemini CLI reads, and a rewrite would lose): valid once they
// are taken out, strings left alone.
func hasComments(data []byte) bool {
	var out []byte
	found := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(data) && data[j] != '"' {
				if data[j] == '\\' {
					j++
				}
				j++
			}
			end := min(j+1, len(data))
			out = append(out, data[i:end]...)
			i = end - 1
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			found = true
			for i < len(data) && data[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			found = true
			end := bytes.Index(data[i+2:], []byte("*/"))
			if end < 0 {
				return false
			}
			i += 2 + end + 1
			out = append(out, ' ')
		default:
			out = append(out, c)
		}
	}
	if !found {
		return false
	}
	_, err := jsonobj.ParseKeepNumbers(out)
	return err == nil
}
