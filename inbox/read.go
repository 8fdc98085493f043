package inbox

import (
	"bytes"
	"unicode/utf8"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/message"
)

// Location is where a message file was found.
type Location struct {
	ID     string // the agent folder
	Folder string // Inbox or Archive
	Name   string
}

// Path returns the location relative to the root.
func (l Location) Path() string { return l.ID + "/" + l.Folder + "/" + l.Name }

// Locate finds the deliverable name in id's inbox, then archive (archive
// first when preferArchive). Only regular files count. Neither gives
// MESSAGE_NOT_FOUND; a name that is not deliverable gives INVALID_FILENAME.
func Locate(t *fsutil.Tree, id, name string, preferArchive bool) (Location, error) {
	if !message.IsDeliverable(name) {
		return Location{}, sterr.InvalidName(name)
	}
	order := []string{Inbox, Archive}
	if preferArchive {
		order = []string{Archive, Inbox}
	}
	for _, folder := range order {
		l := Location{id, folder, name}
		if isRegular(t, l.Path()) {
			return l, nil
		}
	}
	return Location{}, sterr.NotFound(id, name)
}

// Read locates name for id (see Locate) and returns its bytes. When the
// copy found is in the inbox and the archive holds a byte-identical twin,
// the inbox copy is a zombie left by sync: it is deleted and the archive
// copy is returned (the lazy sweep). Errors during that check leave both
// copies alone.
func Read(t *fsutil.Tree, id, name string, preferArchive bool) (Location, []byte, error) {
	return ReadWithin(t, id, name, preferArchive, -1)
}

// ReadWithin is Read of a message of at most limit bytes (no limit when
// negative): a bigger one is a MESSAGE_TOO_LARGE error, read no further
// than the limit.
func ReadWithin(t *fsutil.Tree, id, name string, preferArchive bool, limit int64) (Location, []byte, error) {
	l, err := Locate(t, id, name, preferArchive)
	if err != nil {
		return Location{}, nil, err
	}
	data, err := ReadFile(t, l.Path(), limit)
	if err != nil {
		return Location{}, nil, err
	}
	if l.Folder == Inbox {
		twin := Location{id, Archive, name}
		if adata, err := ReadFile(t, twin.Path(), limit); err == nil && bytes.Equal(data, adata) {
			if t.Remove(l.Path()) == nil {
				l = twin
			}
		}
	}
	return l, data, nil
}

// ReadFile reads the regular file rel when it holds at most limit bytes
// (any size when limit is negative); a bigger file is a MESSAGE_TOO_LARGE
// error, and only limit+1 bytes of it are read.
func ReadFile(t *fsutil.Tree, rel string, limit int64) ([]byte, error) {
	return layout.ReadFileWithin(t, rel, "message", limit)
}

// Text decodes file bytes as UTF-8, replacing invalid sequences with
// U+FFFD, as every upstream reader does.
func Text(data []byte) string {
	if utf8.Valid(data) {
		return string(data)
	}
	return string(bytes.ToValidUTF8(data, []byte("\uFFFD")))
}

// readText returns the decoded text of the regular file rel, or "" when
// it cannot be read.
func readText(t *fsutil.Tree, rel string) string {
	data, _, err := t.ReadRegular(rel)
	if err != nil {
		return ""
	}
	return Text(data)
}

// Projection is the "message" object of `message read --json`: optional
// keys are omitted when empty (tags) or invalid (priority).
// The jsonschema tags describe the fields in the MCP tools' output schemas.
type Projection struct {
	From      string   `json:"from" jsonschema:"The sender's agent name; outside for a file dropped in by hand, empty when the file names none."`
	Body      string   `json:"body" jsonschema:"The message text (the whole file when it has no header)."`
	Subject   string   `json:"subject,omitempty" jsonschema:"The subject, when there is one."`
	InReplyTo string   `json:"inReplyTo,omitempty" jsonschema:"The filename of the message this one answers, when it answers one."`
	Tags      []string `json:"tags,omitempty" jsonschema:"The sender's labels, when there are any."`
	Priority  string   `json:"priority,omitempty" jsonschema:"low, normal or high, when the sender set one."`
}

// Project parses the text of the file name. Outside and untyped files
// have from "" and the whole text as body.
func Project(name, text string) Projection {
	if message.IsOutside(name) {
		return Projection{Body: text}
	}
	fields, body, ok := message.Parse(text)
	if !ok {
		return Projection{Body: text}
	}
	p := Projection{
		From:      fields["from"],
		Body:      body,
		Subject:   fields["subject"],
		InReplyTo: fields["in-reply-to"],
	}
	if v := fields["tags"]; v != "" {
		if tags := message.ReadTags(v); len(tags) > 0 {
			p.Tags = tags
		}
	}
	if v := fields["priority"]; message.ValidPriority(v) {
		p.Priority = v
	}
	return p
}
