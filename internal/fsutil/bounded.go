package fsutil

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Bounded reads: a reader that needs a few bytes of a file reads only
// those, so a huge file planted in the store (or synced from a peer)
// costs it no more than a small one.

// ReadHeadTail reads the regular file rel whole when it holds at most 2n
// bytes, and otherwise its first n bytes followed by its last n. The
// info (from the open file) gives the real size, so the caller knows
// whether, and how much, was left out between the two halves.
func (t *Tree) ReadHeadTail(rel string, n int64) (data []byte, fi fs.FileInfo, err error) {
	err = retryReplaced(t.relook(rel), func() error {
		data, fi, err = t.readHeadTail(rel, n)
		return err
	})
	return data, fi, swappedNotRegular(err, rel)
}

func (t *Tree) readHeadTail(rel string, n int64) ([]byte, fs.FileInfo, error) {
	f, fi, err := t.openRegular(rel)
	if err != nil {
		return nil, nil, err
	}
	defer closeQuietly(f)
	size := fi.Size()
	if size <= 2*n {
		buf := make([]byte, size)
		k, err := f.ReadAt(buf, 0)
		if err != nil && err != io.EOF {
			return nil, nil, vanished(err)
		}
		return buf[:k], fi, nil
	}
	buf := make([]byte, 2*n)
	h, err := f.ReadAt(buf[:n], 0)
	if err != nil && err != io.EOF {
		return nil, nil, vanished(err)
	}
	k, err := f.ReadAt(buf[n:], size-n)
	if err != nil && err != io.EOF {
		return nil, nil, vanished(err)
	}
	return append(buf[:h], buf[n:n+int64(k)]...), fi, nil
}

// ReadPrefix reads at most limit bytes from the start of the file name of
// the folder (regular files only, as ReadRegular) and returns them with
// the file's size.
func (f *Folder) ReadPrefix(name string, limit int64) ([]byte, int64, error) {
	if !singleElement(name) {
		return nil, 0, &fs.PathError{Op: "open", Path: f.rel + "/" + name, Err: fs.ErrInvalid}
	}
	var data []byte
	var size int64
	err := retryReplaced(f.relook(name), func() (err error) {
		data, size, err = readAtMost(f.dir, name, limit)
		return err
	})
	if err != nil {
		return nil, 0, &fs.PathError{Op: "open", Path: f.rel + "/" + name, Err: err}
	}
	return data, size, nil
}

// ReadStart reads the start of the file name of the folder into buf,
// until buf is full or the file ends, and returns how many bytes it read:
// fewer than len(buf) means the whole file. It is ReadPrefix for a name
// that a listing of the folder (RegularNames) showed as a regular file,
// without the fstat, which cost a tenth of the read floor's CPU time over
// 10,000 small files (scripts/readfloor with an fstat added: 93 -> 105 ms);
// whatever took the name's place since is still harmless: a final
// symlink is refused, a folder fails to read, a FIFO gives at most what
// its writer already wrote (never blocks), and nothing is read past
// len(buf). It takes one read: a short read of a regular file is its end.
func (f *Folder) ReadStart(name string, buf []byte) (int, error) {
	if !singleElement(name) {
		return 0, &fs.PathError{Op: "open", Path: f.rel + "/" + name, Err: fs.ErrInvalid}
	}
	n, err := readStart(f.dir, name, buf)
	if err != nil {
		return 0, &fs.PathError{Op: "read", Path: f.rel + "/" + name, Err: err}
	}
	return n, nil
}

// OpenRegular opens a file outside the store for reading (a
// configuration file, a client's transcript): symlinks are followed, but
// only a regular file is returned, and opening never blocks on a FIFO.
func OpenRegular(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(filepath.Clean(path), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	if err != nil {
		closeQuietly(f)
		return nil, nil, err
	}
	return f, fi, nil
}

// ReadConfig reads a configuration file that lives outside the store
// ($ST_CONFIG): symlinks are followed (dotfile managers link their
// files), but only a regular file is read, never blocking on a FIFO and
// never more than limit bytes; a bigger file is an error, not a prefix.
func ReadConfig(path string, limit int64) ([]byte, error) {
	f, fi, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer closeQuietly(f)
	if fi.Size() > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrTooLarge}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrTooLarge}
	}
	return data, nil
}
