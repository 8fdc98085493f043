//go:build !linux

package fsutil

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// readAtMost reads name of the open folder dir through an os.Root on it:
// all of it, or its first limit bytes when limit >= 0, and its size.
func readAtMost(dir *os.File, name string, limit int64) ([]byte, int64, error) {
	r, err := os.OpenRoot(filepath.Clean(dir.Name()))
	if err != nil {
		return nil, 0, err
	}
	defer r.Close()
	t := &Tree{base: dir.Name(), root: r}
	if limit < 0 {
		data, fi, err := t.ReadRegular(name)
		if err != nil {
			return nil, 0, err
		}
		return data, fi.Size(), nil
	}
	f, fi, err := t.openRegular(name)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	buf := make([]byte, min(fi.Size(), limit))
	n, err := f.ReadAt(buf, 0)
	if err != nil && err != io.EOF {
		return nil, 0, err
	}
	return buf[:n], fi.Size(), nil
}

// listPrefixed lists the names in the open folder dir that start with
// prefix, whatever their type.
func listPrefixed(dir *os.File, prefix string) ([]string, error) {
	names, err := dir.Readdirnames(-1)
	return slices.DeleteFunc(names, func(n string) bool { return !strings.HasPrefix(n, prefix) }), err
}

// listAll lists every name in the open folder dir.
func listAll(dir *os.File) ([]string, error) {
	return dir.Readdirnames(-1)
}

// lstatMode is name's type and modification time in the open folder dir
// (a final symlink is not followed).
func lstatMode(dir *os.File, name string) (fs.FileMode, time.Time, bool) {
	r, err := os.OpenRoot(filepath.Clean(dir.Name()))
	if err != nil {
		return 0, time.Time{}, false
	}
	defer r.Close()
	fi, err := r.Lstat(name)
	if err != nil {
		return 0, time.Time{}, false
	}
	return fi.Mode().Type(), fi.ModTime(), true
}

// listRegular returns the names of the regular files in the open folder
// dir, unsorted.
func listRegular(dir *os.File) ([]string, error) {
	entries, err := dir.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

// isRegular stats name in the open folder dir without following it.
func isRegular(dir *os.File, name string) bool {
	_, _, ok := regularStat(dir, name)
	return ok
}

// regularStat is name's size and modification time when it is a regular
// file of the open folder dir (a final symlink is not followed).
func regularStat(dir *os.File, name string) (int64, time.Time, bool) {
	r, err := os.OpenRoot(filepath.Clean(dir.Name()))
	if err != nil {
		return 0, time.Time{}, false
	}
	defer r.Close()
	fi, err := r.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return 0, time.Time{}, false
	}
	return fi.Size(), fi.ModTime(), true
}

// readStart reads the start of name of the open folder dir into buf until
// buf is full or the file ends.
func readStart(dir *os.File, name string, buf []byte) (int, error) {
	data, _, err := readAtMost(dir, name, int64(len(buf)))
	return copy(buf, data), err
}
