package inbox

import (
	"slices"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/message"
)

// Original is the message a reply answers.
type Original struct {
	Where   Location
	From    string // a valid agent name: the reply's recipient
	Subject string // "" when the original had none
}

// FindForReply locates the canonical name for a reply by self: self's
// inbox, self's archive, then every other root entry's archive in byte
// order (never other agents' inboxes, as upstream). The first copy's from
// must be a valid agent name (INVALID_IDENTITY otherwise, with the raw
// value); none found gives MESSAGE_NOT_FOUND. self must be a valid name.
func FindForReply(t *fsutil.Tree, self, name string) (Original, error) {
	if !message.IsCanonical(name) {
		return Original{}, sterr.InvalidName(name)
	}
	if err := layout.CheckAgent(self); err != nil {
		return Original{}, err
	}
	candidates := []Location{{self, Inbox, name}, {self, Archive, name}}
	if t != nil {
		ids, _ := t.ReadDirNames(".")
		slices.Sort(ids)
		for _, id := range ids {
			if id != self {
				candidates = append(candidates, Location{id, Archive, name})
			}
		}
	}
	for _, l := range candidates {
		if !isRegular(t, l.Path()) {
			continue
		}
		fields, _, _ := message.Parse(readText(t, l.Path()))
		from := fields["from"]
		if err := layout.CheckAgent(from); err != nil {
			return Original{}, err
		}
		return Original{Where: l, From: from, Subject: fields["subject"]}, nil
	}
	return Original{}, sterr.NotFound(self, name)
}
