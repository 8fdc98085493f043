package inbox

import (
	"slices"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/message"
)

// ThreadLine is one message of a thread.
type ThreadLine struct {
	Name    string
	From    string // raw frontmatter value, "" when missing
	Subject string // raw frontmatter value, "" when missing
	Depth   int    // 0 in flat mode
	// Where is the message's first copy: root entries in byte order,
	// inbox before archive.
	Where Location
}

// copyInfo is what the walk needs of one file.
type copyInfo struct {
	where     Location
	from      string
	subject   string
	inReplyTo string
}

// index holds every canonical message under the root: the first copy of
// each name and, per parent, the names replying to it.
type index struct {
	first    map[string]copyInfo
	children map[string][]string
}

// buildIndex reads every canonical regular file in every
// <entry>/{inbox,archive} under the root, once. Root entries are not
// validated, like upstream's walk.
func buildIndex(t *fsutil.Tree) *index {
	ix := &index{first: map[string]copyInfo{}, children: map[string][]string{}}
	if t == nil {
		return ix
	}
	ids, _ := t.ReadDirNames(".")
	slices.Sort(ids)
	for _, id := range ids {
		for _, folder := range []string{Inbox, Archive} {
			names, _ := regularNames(t, id+"/"+folder)
			if folder == Inbox {
				names = WithoutTwins(t, id, names)
			}
			texts := readCanonical(t, id+"/"+folder, names)
			for i, n := range names {
				if !message.IsCanonical(n) {
					continue
				}
				l := Location{id, folder, n}
				fields, _, _ := message.Parse(texts[i])
				c := copyInfo{l, fields["from"], fields["subject"], fields["in-reply-to"]}
				first, seen := ix.first[n]
				if !seen {
					ix.first[n] = c
				}
				// A twin usually names the same parent as the first copy;
				// only a divergent one needs the (linear) duplicate check.
				p := c.inReplyTo
				if p != "" && (!seen || p != first.inReplyTo && !slices.Contains(ix.children[p], n)) {
					ix.children[p] = append(ix.children[p], n)
				}
			}
		}
	}
	for _, c := range ix.children {
		slices.Sort(c)
	}
	return ix
}

func (ix *index) line(name string, depth int) ThreadLine {
	c := ix.first[name]
	return ThreadLine{Name: name, From: c.from, Subject: c.subject, Depth: depth, Where: c.where}
}

// Thread walks the reply chain of the canonical name across every
// agent's inbox and archive. Ancestors follow in-reply-to from the seed
// while the parent is canonical, exists and is not already in the chain
// (a cycle ends the walk). Flat: the ancestors (seed included) and every
// descendant of the seed, sorted by name. Tree: the ancestors top-down at
// depths 0..k-1, then the seed's subtree depth-first from depth k,
// children sorted, nothing twice.
func Thread(t *fsutil.Tree, name string, tree bool) ([]ThreadLine, error) {
	if !message.IsCanonical(name) {
		return nil, sterr.InvalidName(name)
	}
	ix := buildIndex(t)
	if _, ok := ix.first[name]; !ok {
		return nil, sterr.NotFound("", name)
	}
	var chain []string // seed first
	inChain := map[string]bool{}
	for cur := name; ; {
		chain = append(chain, cur)
		inChain[cur] = true
		p := ix.first[cur].inReplyTo
		if _, exists := ix.first[p]; !exists || !message.IsCanonical(p) || inChain[p] {
			break
		}
		cur = p
	}
	slices.Reverse(chain)
	var lines []ThreadLine
	if !tree {
		set := map[string]bool{}
		for _, n := range chain {
			set[n] = true
		}
		ix.collect(name, set)
		names := make([]string, 0, len(set))
		for n := range set {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			lines = append(lines, ix.line(n, 0))
		}
		return lines, nil
	}
	printed := map[string]bool{}
	for i, n := range chain {
		lines = append(lines, ix.line(n, i))
		printed[n] = true
	}
	return ix.descend(name, len(chain), printed, lines), nil
}

// collect adds every descendant of parent to set, recursing only into
// names it added, so a cycle terminates.
func (ix *index) collect(parent string, set map[string]bool) {
	var fresh []string
	for _, c := range ix.children[parent] {
		if !set[c] {
			set[c] = true
			fresh = append(fresh, c)
		}
	}
	for _, c := range fresh {
		ix.collect(c, set)
	}
}

func (ix *index) descend(parent string, depth int, printed map[string]bool, out []ThreadLine) []ThreadLine {
	for _, c := range ix.children[parent] {
		if printed[c] {
			continue
		}
		printed[c] = true
		out = append(out, ix.line(c, depth))
		out = ix.descend(c, depth+1, printed, out)
	}
	return out
}
