// Package resource keeps an agent's annotated URLs: one file per URL in
// <root>/<agent>/resources/<unix-ms>-<rand6>.md, with the URL, title,
// tags and relation in frontmatter and an optional description as the
// body. Only the owner writes them; files are created without ever
// replacing one, so copies made on two machines merge through sync.
package resource

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/message"
)

// Dir is the folder name inside an agent's folder.
const Dir = "resources"

// Resource is what an owner publishes.
type Resource struct {
	URL      string
	Title    string   // omitted when empty
	Tags     []string // already split and trimmed; omitted when empty
	Relation string   // free-form (owns, relates-to, depends-on); omitted when empty
	Body     []byte   // written verbatim, no newline added
}

// Record is a resource read back. Field order is the JSON wire order of
// `st resource read --json` after identity and filename.
type Record struct {
	Filename string   `json:"filename"`
	URL      string   `json:"url"`      // "" when missing
	Title    *string  `json:"title"`    // nil when missing or empty
	Tags     []string `json:"tags"`     // never nil
	Relation *string  `json:"relation"` // nil when missing or empty
	Body     string   `json:"body"`
}

// ValidURL reports whether url matches upstream's /^[a-z][a-z0-9+.-]*:\/\/.+/
// (JavaScript semantics: "." is any character but \n, \r, U+2028 and
// U+2029): a lowercase scheme, "://" and at least one more character.
// Hand-parsed, so that no regexp is compiled at start-up.
func ValidURL(url string) bool {
	if url == "" || url[0] < 'a' || url[0] > 'z' {
		return false
	}
	i := 1
	for i < len(url) && isSchemeByte(url[i]) {
		i++
	}
	rest, ok := strings.CutPrefix(url[i:], "://")
	if !ok || rest == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return r != '\n' && r != '\r' && r != '\u2028' && r != '\u2029'
}

func isSchemeByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-'
}

// CheckURL returns INVALID_RESOURCE_URL for a url ValidURL refuses.
func CheckURL(url string) error {
	if ValidURL(url) {
		return nil
	}
	q, _ := jsstr.Marshal(url)
	return sterr.New(sterr.InvalidResourceURL,
		"invalid resource url: "+string(q)+" (must contain a scheme, e.g. https://, pty://)",
		map[string]any{"value": url})
}

// SplitTags splits each value on commas, trims the items and drops
// empty ones; it never returns nil.
func SplitTags(values ...string) []string {
	tags := []string{}
	for _, v := range values {
		for _, t := range strings.Split(v, ",") {
			if t = jsstr.TrimSpace(t); t != "" {
				tags = append(tags, t)
			}
		}
	}
	return tags
}

// Bytes returns the file content of r.
func (r Resource) Bytes() []byte {
	pairs := []message.Pair{{Key: "url", Value: r.URL}}
	if r.Title != "" {
		pairs = append(pairs, message.Pair{Key: "title", Value: r.Title})
	}
	if len(r.Tags) > 0 {
		pairs = append(pairs, message.Pair{Key: "tags", Value: r.Tags})
	}
	if r.Relation != "" {
		pairs = append(pairs, message.Pair{Key: "relation", Value: r.Relation})
	}
	return message.Format(pairs, r.Body)
}

// Add checks r's URL and writes it into id's resources/ (created if
// needed) under a fresh name, which it returns. The agent must exist.
func Add(t *fsutil.Tree, id string, r Resource, now time.Time) (string, error) {
	if err := CheckURL(r.URL); err != nil {
		return "", err
	}
	dir := id + "/" + Dir
	if err := t.MkdirAll(dir); err != nil {
		return "", err
	}
	return t.Deliver(dir, r.Bytes(), func() string { return message.NewName(now) })
}

// List returns the canonical names in id's resources/, sorted; a missing
// folder has none.
func List(t *fsutil.Tree, id string) []string {
	names := []string{}
	if t == nil {
		return names
	}
	all, err := t.ReadDirNames(id + "/" + Dir)
	if err != nil {
		return names
	}
	for _, n := range all {
		if message.IsCanonical(n) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// CheckName returns INVALID_FILENAME unless filename is canonical.
func CheckName(filename string) error {
	if !message.IsCanonical(filename) {
		return sterr.InvalidName(filename)
	}
	return nil
}

// Read returns one resource of id, refusing a file over limit bytes (the
// maximum message size; a negative limit reads it whole). The filename
// must be canonical.
func Read(t *fsutil.Tree, id, filename string, limit int64) (Record, error) {
	rel, err := relPath(t, id, filename)
	if err != nil {
		return Record{}, err
	}
	data, err := layout.ReadFileWithin(t, rel, "resource", limit)
	if errors.Is(err, fs.ErrNotExist) {
		return Record{}, notFound(id, filename)
	}
	if err != nil {
		return Record{}, err
	}
	return Parse(filename, data), nil
}

// ReadHeader returns one resource of id without its body, reading only
// the head of the file, so a listing costs the same whatever the size of
// a description.
func ReadHeader(t *fsutil.Tree, id, filename string) (Record, error) {
	rel, err := relPath(t, id, filename)
	if err != nil {
		return Record{}, err
	}
	head, ok := inbox.ReadHead(t, rel)
	if !ok {
		return Record{}, notFound(id, filename)
	}
	rec := Parse(filename, head)
	rec.Body = ""
	return rec, nil
}

// CheckSize refuses a resource whose file would be more than limit
// bytes (the maximum message size).
func CheckSize(r Resource, limit int64) error {
	if n := int64(len(r.Bytes())); n > limit {
		return layout.ErrTooLarge("resource", n, limit)
	}
	return nil
}

// relPath is the store path of id's resource filename, which must be
// canonical.
func relPath(t *fsutil.Tree, id, filename string) (string, error) {
	if err := CheckName(filename); err != nil {
		return "", err
	}
	if t == nil {
		return "", notFound(id, filename)
	}
	return id + "/" + Dir + "/" + filename, nil
}

// Parse reads a resource file's content.
func Parse(filename string, data []byte) Record {
	fields, body, _ := message.Parse(strings.ToValidUTF8(string(data), "\uFFFD"))
	rec := Record{Filename: filename, URL: fields["url"], Tags: []string{}, Body: body}
	if v := fields["title"]; v != "" {
		rec.Title = &v
	}
	if v := fields["relation"]; v != "" {
		rec.Relation = &v
	}
	if v, ok := fields["tags"]; ok && v != "" {
		rec.Tags = message.ReadTags(v)
	}
	return rec
}

// Remove deletes one resource of id. The filename must be canonical.
func Remove(t *fsutil.Tree, id, filename string) error {
	if err := CheckName(filename); err != nil {
		return err
	}
	rel := id + "/" + Dir + "/" + filename
	if t == nil {
		return notFound(id, filename)
	}
	if _, err := t.Lstat(rel); errors.Is(err, fs.ErrNotExist) {
		return notFound(id, filename)
	}
	return t.Remove(rel)
}

func notFound(id, filename string) error {
	return sterr.New(sterr.ResourceNotFound, "resource not found: "+id+"/"+Dir+"/"+filename,
		map[string]any{"identity": id, "filename": filename})
}
