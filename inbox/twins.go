package inbox

import (
	"slices"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/message"
)

// WithoutTwins drops from names (entries of id's inbox/) every archived
// twin: a name whose archive copy is its byte-identical tombstone, the
// same files Sweep removes. A sync that never deletes brings such a copy
// back into the inbox (a peer still had it there), and it stays until the
// next sweep; readers that list the inbox through this never show it,
// count it or announce it meanwhile. A divergent pair stays listed, as
// Sweep leaves it for a person.
//
// The archive folder is opened once and asked about each name
// (archiveHas), and bytes are read only for a name present in both
// folders. names is filtered in place and returned.
func WithoutTwins(t *fsutil.Tree, id string, names []string) []string {
	if t == nil || len(names) == 0 {
		return names
	}
	archive, err := t.OpenFolder(id + "/" + Archive)
	if err != nil {
		return names
	}
	defer archive.Close()
	has := archiveHas(archive, len(names))
	return slices.DeleteFunc(names, func(n string) bool { return archivedTwin(t, has, id, n) })
}

// archiveHas returns a test of whether the archive holds a regular file
// of a name, to be asked about asks names (safe for concurrent use). A
// listed entry costs about half a stat (`ls --json` over 10,000 messages
// spent a tenth of its CPU stat'ing an empty archive for each), so the
// archive is listed once when its size says it holds fewer than twice
// that many entries (an ext4 entry of a message takes about 32 bytes, and
// an empty folder 4 KiB), and stat'ed name by name otherwise: a small
// inbox beside a big archive costs a stat per inbox message.
func archiveHas(archive *fsutil.Folder, asks int) func(string) bool {
	if size, err := archive.Size(); err == nil && size/32 < 2*int64(asks) {
		if names, err := archive.RegularNames(); err == nil {
			sortNames(names)
			return func(n string) bool {
				_, found := slices.BinarySearch(names, n)
				return found
			}
		}
	}
	return archive.IsRegular
}

// IsArchivedTwin reports whether id's inbox/name is an archived twin (see
// WithoutTwins).
func IsArchivedTwin(t *fsutil.Tree, id, name string) bool {
	return len(WithoutTwins(t, id, []string{name})) == 0
}

// archivedTwin: name is in the archive (has) as a canonical message or an
// attachment of one there, and the two copies are equal.
func archivedTwin(t *fsutil.Tree, has func(string) bool, id, name string) bool {
	if !has(name) {
		return false
	}
	if !message.IsCanonical(name) {
		p, ok := message.Prefix(name)
		if !ok || !has(p+".md") {
			return false
		}
	}
	return identical(t, id+"/"+Archive+"/"+name, id+"/"+Inbox+"/"+name)
}

// Pushable is what a channel pushes of names, listed in agent id's
// inbox: the deliverable messages but the archived twins a sync brought
// back. The server pushes them and st-mcp's front hands the session to
// the server when there are any, by the same rule. names is filtered in
// place and returned.
func Pushable(t *fsutil.Tree, id string, names []string) []string {
	names = slices.DeleteFunc(names, func(n string) bool { return !message.IsDeliverable(n) })
	return WithoutTwins(t, id, names)
}
