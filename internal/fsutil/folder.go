package fsutil

import (
	"io/fs"
	"os"
	"strings"
	"time"
)

// Folder is one open folder of the tree, for reading many of its files by
// bare name: each read is resolved against the open folder, not walked
// from the root again. Listings and thread walks read thousands of files
// this way.
type Folder struct {
	dir *os.File
	rel string
}

// OpenFolder opens folder rel of the tree.
func (t *Tree) OpenFolder(rel string) (*Folder, error) {
	d, err := t.openDir(rel)
	if err != nil {
		return nil, err
	}
	return &Folder{dir: d, rel: rel}, nil
}

// RegularNames lists the names of the regular files in the folder,
// unsorted, with the types the folder listing gives: no symlink, FIFO,
// device or folder. Reading them back (ReadStart) trusts that type.
func (f *Folder) RegularNames() ([]string, error) {
	names, err := listRegular(f.dir)
	if err != nil {
		return nil, &fs.PathError{Op: "readdirent", Path: f.rel, Err: err}
	}
	return names, nil
}

// Names lists every name in the folder, unsorted, whatever its type:
// one string per entry and nothing else.
func (f *Folder) Names() ([]string, error) {
	names, err := listAll(f.dir)
	if err != nil {
		return nil, &fs.PathError{Op: "readdirent", Path: f.rel, Err: err}
	}
	return names, nil
}

// Lstat returns the type and modification time of name in the folder
// without following a final symlink: one stat through the open folder,
// and no FileInfo.
func (f *Folder) Lstat(name string) (mode fs.FileMode, mtime time.Time, ok bool) {
	if !singleElement(name) {
		return 0, time.Time{}, false
	}
	return lstatMode(f.dir, name)
}

// IsRegular reports whether name is a regular file of the folder (a
// final symlink is not followed): one stat through the open folder.
func (f *Folder) IsRegular(name string) bool {
	return singleElement(name) && isRegular(f.dir, name)
}

// ModTime returns the modification time of name when it is a regular
// file of the folder (a final symlink is not followed): one stat through
// the open folder, where a path through the tree opens every folder on
// the way again.
func (f *Folder) ModTime(name string) (time.Time, bool) {
	_, at, ok := f.Regular(name)
	return at, ok
}

// Regular returns the size and modification time of name when it is a
// regular file of the folder (a final symlink is not followed), with one
// stat through the open folder.
func (f *Folder) Regular(name string) (size int64, mtime time.Time, ok bool) {
	if !singleElement(name) {
		return 0, time.Time{}, false
	}
	return regularStat(f.dir, name)
}

// Size returns the folder's own size from the file system (an fstat of
// the open folder). It grows with the entries on ext4, tmpfs and btrfs,
// so it hints at the cost of listing them.
func (f *Folder) Size() (int64, error) {
	fi, err := f.dir.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// Close releases the folder.
func (f *Folder) Close() error { return f.dir.Close() }

// ReadRegular reads the file name of the folder only if it is a regular
// file: never through a symlink, never blocking on a FIFO. name must be a
// single path element.
func (f *Folder) ReadRegular(name string) ([]byte, error) {
	if !singleElement(name) {
		return nil, &fs.PathError{Op: "open", Path: f.rel + "/" + name, Err: fs.ErrInvalid}
	}
	var data []byte
	err := retryReplaced(f.relook(name), func() (err error) {
		data, _, err = readAtMost(f.dir, name, -1)
		return err
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: f.rel + "/" + name, Err: err}
	}
	return data, nil
}

// relook is retryReplaced's look at the folder's file name by its path.
func (f *Folder) relook(name string) func() {
	return func() { _, _, _ = lstatMode(f.dir, name) }
}

func singleElement(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsRune(name, '/')
}
