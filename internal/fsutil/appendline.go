package fsutil

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/smalltalk-go/st/internal/sha256"
)

// ErrBadLine is returned by AppendLine for a record that is not exactly
// one line ending in "\n".
var ErrBadLine = errors.New("append: record must be one line ending in \\n")

// tailChunk is how much AppendLine reads backwards at a time when it
// repairs a torn last line.
const tailChunk = 4096

// AppendLine appends one record (a single line ending in "\n") to the
// regular file rel, creating it if needed; its folder must exist. This is
// reliability.md §2.4 design A: under an flock (kept outside the tree,
// keyed by rel) the record goes out in one O_APPEND write; if the file
// does not end in "\n" (a writer died mid-record, or a crash left a NUL
// tail) it is first truncated back to its last "\n". The cost does not
// depend on the file's size: only the last byte is read, and more only
// when the tail is torn. There is no fsync: a crash may lose the last
// records but never leaves a torn one that readers would accept. On a
// failed write the file is truncated back to its previous size. As with
// WriteAtomic, the modification time is the tree's clock.
func (t *Tree) AppendLine(ctx context.Context, rel string, record []byte) error {
	if len(record) == 0 || record[len(record)-1] != '\n' || bytes.IndexByte(record[:len(record)-1], '\n') >= 0 {
		return ErrBadLine
	}
	sum := sha256.Sum256([]byte(rel))
	unlock, err := t.Lock(ctx, "append-"+hex.EncodeToString(sum[:8]))
	if err != nil {
		return err
	}
	defer unlock()
	f, err := t.root.OpenFile(rel, os.O_RDWR|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, filePerm)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return &fs.PathError{Op: "open", Path: rel, Err: ErrNotRegular}
		}
		return err
	}
	fi, err := t.checkRegular(f, rel)
	if err != nil {
		closeQuietly(f)
		return swappedNotRegular(err, rel)
	}
	size, err := repairTail(f, fi.Size())
	if err != nil {
		closeQuietly(f)
		return fmt.Errorf("append %s: repair tail: %w", rel, err)
	}
	if _, err := f.Write(record); err != nil {
		_ = f.Truncate(size) // best effort: a torn tail is repaired by the next append
		closeQuietly(f)
		return err
	}
	if err := setModTime(f, t.now()); err != nil {
		closeQuietly(f)
		return err
	}
	return f.Close()
}

// repairTail truncates f to just after its last "\n" when it does not end
// in one, and returns the resulting size.
func repairTail(f *os.File, size int64) (int64, error) {
	if size == 0 {
		return 0, nil
	}
	var last [1]byte
	if _, err := f.ReadAt(last[:], size-1); err != nil {
		return 0, err
	}
	if last[0] == '\n' {
		return size, nil
	}
	keep, err := lastNewline(f, size)
	if err != nil {
		return 0, err
	}
	return keep, f.Truncate(keep)
}

// lastNewline returns the offset just after the last "\n" in f's first
// size bytes, or 0 when there is none, reading backwards.
func lastNewline(f *os.File, size int64) (int64, error) {
	buf := make([]byte, tailChunk)
	end := size
	for end > 0 {
		start := max(end-tailChunk, 0)
		chunk := buf[:end-start]
		if _, err := f.ReadAt(chunk, start); err != nil && err != io.EOF {
			return 0, err
		}
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	return 0, nil
}

// ReadTail reads at most the last n bytes of the regular file rel (never
// following a final symlink or blocking on a FIFO) and reports the file's
// size. It is how readers look at the end of a log of any length in
// constant time.
func (t *Tree) ReadTail(rel string, n int64) (data []byte, fi fs.FileInfo, err error) {
	err = retryReplaced(t.relook(rel), func() error {
		data, fi, err = t.readTail(rel, n)
		return err
	})
	return data, fi, swappedNotRegular(err, rel)
}

func (t *Tree) readTail(rel string, n int64) ([]byte, fs.FileInfo, error) {
	f, fi, err := t.openRegular(rel)
	if err != nil {
		return nil, nil, err
	}
	defer closeQuietly(f)
	start := max(fi.Size()-n, 0)
	buf := make([]byte, fi.Size()-start)
	k, err := f.ReadAt(buf, start)
	if err != nil && err != io.EOF {
		return nil, nil, vanished(err)
	}
	return buf[:k], fi, nil
}

// ReadRange reads the regular file rel from offset off to its end (at
// most limit bytes), for followers that remember how far they got.
func (t *Tree) ReadRange(rel string, off, limit int64) (data []byte, fi fs.FileInfo, err error) {
	err = retryReplaced(t.relook(rel), func() error {
		data, fi, err = t.readRange(rel, off, limit)
		return err
	})
	return data, fi, swappedNotRegular(err, rel)
}

func (t *Tree) readRange(rel string, off, limit int64) ([]byte, fs.FileInfo, error) {
	f, fi, err := t.openRegular(rel)
	if err != nil {
		return nil, nil, err
	}
	defer closeQuietly(f)
	if off >= fi.Size() {
		return nil, fi, nil
	}
	n := min(fi.Size()-off, limit)
	buf := make([]byte, n)
	k, err := f.ReadAt(buf, off)
	if err != nil && err != io.EOF {
		return nil, nil, vanished(err)
	}
	return buf[:k], fi, nil
}

// OpenRegular opens rel for reading only if it is a regular file (never
// following a final symlink, never blocking on a FIFO), for a reader that
// streams a file too big to hold; the caller closes it.
func (t *Tree) OpenRegular(rel string) (f *os.File, fi fs.FileInfo, err error) {
	err = retryReplaced(t.relook(rel), func() error {
		f, fi, err = t.openRegular(rel)
		return err
	})
	return f, fi, swappedNotRegular(err, rel)
}

func (t *Tree) openRegular(rel string) (*os.File, fs.FileInfo, error) {
	from, in := t.at(rel)
	f, err := from.OpenFile(in, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	err = withPath(err, rel)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, nil, &fs.PathError{Op: "open", Path: rel, Err: ErrNotRegular}
		}
		return nil, nil, err
	}
	fi, err := t.checkRegular(f, rel)
	if err != nil {
		closeQuietly(f)
		return nil, nil, vanished(err)
	}
	return f, fi, nil
}

// checkRegular makes sure the open file f is the regular file named rel
// itself. os.Root follows in-root symlinks even under O_NOFOLLOW, so a
// final symlink is caught here by comparing with Lstat.
func (t *Tree) checkRegular(f *os.File, rel string) (fs.FileInfo, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	li, err := t.Lstat(rel)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || !li.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: rel, Err: ErrNotRegular}
	}
	if !os.SameFile(fi, li) {
		// Another regular file under the name: a rename since the
		// open, which a reader reads again (retryReplaced).
		return nil, errSwapped
	}
	return fi, nil
}

// swappedNotRegular is err, or ErrNotRegular naming rel when err says
// the name kept leading to another file (errSwapped) after every try.
func swappedNotRegular(err error, rel string) error {
	if errors.Is(err, errSwapped) {
		return &fs.PathError{Op: "open", Path: rel, Err: ErrNotRegular}
	}
	return err
}
