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
// The archive folder is opened once and each name costs one stat there,
// and bytes are read only for a name present in both folders. names is
// filtered in place and returned.
func WithoutTwins(t *fsutil.Tree, id string, names []string) []string {
	if t == nil || len(names) == 0 {
		return names
	}
	archive, err := t.OpenFolder(id + "/" + Archive)
	if err != nil {
		return names
	}
	defer archive.Close()
	return slices.DeleteFunc(names, func(n string) bool { return archivedTwin(t, archive, id, n) })
}

// IsArchivedTwin reports whether id's inbox/name is an archived twin (see
// WithoutTwins).
func IsArchivedTwin(t *fsutil.Tree, id, name string) bool {
	return len(WithoutTwins(t, id, []string{name})) == 0
}

// archivedTwin: name is in archive (opened as archive) as a canonical
// message or an attachment of one there, and the two copies are equal.
func archivedTwin(t *fsutil.Tree, archive *fsutil.Folder, id, name string) bool {
	// A raw stat through the open folder: through the archive as a Tree
	// (os.Root's Lstat, a FileInfo and a path error for each absent name)
	// the 10,000 stats of `ls --json` took it from 1.50x to 1.83x the
	// read floor's CPU.
	if !archive.IsRegular(name) {
		return false
	}
	if !message.IsCanonical(name) {
		p, ok := message.Prefix(name)
		if !ok {
			return false
		}
		if !archive.IsRegular(p + ".md") {
			return false
		}
	}
	return identical(t, id+"/"+Archive+"/"+name, id+"/"+Inbox+"/"+name)
}
