package inbox

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"slices"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/message"
)

// Outcome is what archiving did to one file.
type Outcome int

const (
	// Moved means the inbox copy was moved into the archive.
	Moved Outcome = iota
	// Idempotent means the archive copy was already there (any identical
	// inbox copy was removed).
	Idempotent
)

// String returns "moved" or "idempotent", the MCP outcome words.
func (o Outcome) String() string {
	if o == Moved {
		return "moved"
	}
	return "idempotent"
}

// Message returns the CLI's line for the outcome.
func (o Outcome) Message() string {
	if o == Moved {
		return "archived"
	}
	return "archived (idempotent: archive copy already present)"
}

// AttachmentOutcome is the outcome for one prefix sibling.
type AttachmentOutcome struct {
	Name    string
	Outcome Outcome
}

// ArchiveResult reports an ArchiveMessage call. Attachments is nil unless
// attachments were requested for a canonical name.
type ArchiveResult struct {
	Outcome     Outcome
	Attachments []AttachmentOutcome
}

// ErrArchiveConflict builds the ARCHIVE_CONFLICT error for name.
func ErrArchiveConflict(id, name string) *sterr.Error {
	return sterr.New(sterr.ArchiveConflict,
		"refuse to archive: archive/"+name+" exists and differs from inbox/"+name+
			". This indicates a violated invariant; resolve by hand.",
		map[string]any{"identity": id, "filename": name})
}

// ArchiveMessage moves the deliverable name from id's inbox to its archive
// without ever replacing an archive copy, which is the tombstone that
// keeps sync from resurrecting the message. With withAttachments (ignored
// for outside names) every prefix sibling in inbox or archive follows.
//
// Before anything changes, every file concerned that has both an inbox
// and an archive copy is compared: differing bytes give ARCHIVE_CONFLICT
// and nothing is touched. Then per file: archive copy only → idempotent;
// both → the inbox copy is removed, idempotent; inbox only → moved. The
// message itself in neither folder gives MESSAGE_NOT_FOUND; a sibling in
// neither (gone meanwhile) is skipped.
func ArchiveMessage(t *fsutil.Tree, id, name string, withAttachments bool) (ArchiveResult, error) {
	if !message.IsDeliverable(name) {
		return ArchiveResult{}, sterr.InvalidName(name)
	}
	withAttachments = withAttachments && message.IsCanonical(name)
	var siblings []string
	if withAttachments {
		siblings = Siblings(t, id, name)
	}
	for _, n := range append([]string{name}, siblings...) {
		if conflict(t, id, n) {
			return ArchiveResult{}, ErrArchiveConflict(id, n)
		}
	}
	inInbox := isRegular(t, id+"/"+Inbox+"/"+name)
	if !inInbox && !isRegular(t, id+"/"+Archive+"/"+name) {
		return ArchiveResult{}, sterr.NotFound(id, name)
	}
	if inInbox {
		if err := t.MkdirAll(id + "/" + Archive); err != nil {
			return ArchiveResult{}, err
		}
	}
	outcome, _, err := archiveOne(t, id, name)
	if err != nil {
		return ArchiveResult{}, err
	}
	res := ArchiveResult{Outcome: outcome}
	if !withAttachments {
		return res, nil
	}
	res.Attachments = []AttachmentOutcome{}
	for _, s := range siblings {
		o, found, err := archiveOne(t, id, s)
		if err != nil {
			return res, err
		}
		if found {
			res.Attachments = append(res.Attachments, AttachmentOutcome{s, o})
		}
	}
	return res, nil
}

// Siblings returns the other names sharing name's prefix in id's inbox
// or archive, deduplicated and byte-sorted.
func Siblings(t *fsutil.Tree, id, name string) []string {
	prefix, ok := message.Prefix(name)
	if !ok {
		return nil
	}
	var out []string
	for _, folder := range []string{Inbox, Archive} {
		names, _ := regularNames(t, id+"/"+folder)
		for _, n := range names {
			if p, ok := message.Prefix(n); ok && p == prefix && n != name && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	slices.Sort(out)
	return out
}

// conflict reports whether name has inbox and archive copies that differ.
// Archiving is a rename: the bodies are compared only when both copies
// exist and have the same size, a chunk at a time, so that a message of
// any size is archived in bounded memory.
func conflict(t *fsutil.Tree, id, name string) bool {
	in, fi, err := t.OpenRegular(id + "/" + Inbox + "/" + name)
	if err != nil {
		return false
	}
	defer func() { _ = in.Close() }() // read only: nothing to lose
	ar, fa, err := t.OpenRegular(id + "/" + Archive + "/" + name)
	if err != nil {
		return false
	}
	defer func() { _ = ar.Close() }() // read only: nothing to lose
	if fi.Size() != fa.Size() {
		return true
	}
	same, err := sameContent(in, ar)
	return err != nil || !same
}

// compareChunk is how much of each copy sameContent holds at a time.
const compareChunk = 256 << 10

// sameContent reports whether a and b read the same bytes to their ends.
func sameContent(a, b io.Reader) (bool, error) {
	ba, bb := make([]byte, compareChunk), make([]byte, compareChunk)
	for {
		na, ea := io.ReadFull(a, ba)
		nb, eb := io.ReadFull(b, bb)
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return false, nil
		}
		aEnd := ea == io.EOF || ea == io.ErrUnexpectedEOF
		bEnd := eb == io.EOF || eb == io.ErrUnexpectedEOF
		switch {
		case ea != nil && !aEnd:
			return false, ea
		case eb != nil && !bEnd:
			return false, eb
		case aEnd || bEnd:
			return aEnd == bEnd, nil
		}
	}
}

// archiveOne applies the per-file rule; found is false when the file is
// in neither folder.
func archiveOne(t *fsutil.Tree, id, name string) (o Outcome, found bool, err error) {
	in, ar := id+"/"+Inbox+"/"+name, id+"/"+Archive+"/"+name
	if !isRegular(t, in) {
		return Idempotent, isRegular(t, ar), nil
	}
	if isRegular(t, ar) {
		return Idempotent, true, removeTwin(t, id, name)
	}
	err = t.MoveNoReplace(in, ar)
	if errors.Is(err, fs.ErrExist) {
		// An archive copy appeared since the check (another st, a sync).
		return Idempotent, true, removeTwin(t, id, name)
	}
	if errors.Is(err, fs.ErrNotExist) && !isRegular(t, in) {
		// The inbox copy went since the check: another archiver moved it
		// (a trim may even have deleted the archive copy since). Only
		// archiving removes inbox copies, so it is archived.
		return Idempotent, true, nil
	}
	if err != nil {
		return 0, true, err
	}
	return Moved, true, nil
}

// removeTwin deletes the inbox copy of name after checking again that it
// is byte-identical to the archive copy.
func removeTwin(t *fsutil.Tree, id, name string) error {
	if conflict(t, id, name) {
		return ErrArchiveConflict(id, name)
	}
	err := t.Remove(id + "/" + Inbox + "/" + name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
