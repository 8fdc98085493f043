package inbox

import (
	"fmt"
	"slices"
	"testing"

	"github.com/smalltalk-go/st/internal/sterr"
)

func reply(from, parent string) string {
	return msg(from, "subject: s-"+from+"\nin-reply-to: "+parent+"\n")
}

func names(lines []ThreadLine) []string {
	var out []string
	for _, l := range lines {
		out = append(out, fmt.Sprintf("%d:%s", l.Depth, l.Name[:15]))
	}
	return out
}

func TestThread(t *testing.T) {
	const (
		a = "1700000000001-aaaaaa.md"
		b = "1700000000002-bbbbbb.md"
		c = "1700000000003-cccccc.md"
		d = "1700000000004-dddddd.md"
		e = "1700000000005-eeeeee.md"
	)
	tests := []struct {
		name  string
		files map[string]string
		seed  string
		tree  bool
		want  []string
	}{
		{"cycle flat", map[string]string{"x/inbox/" + a: reply("p", b), "y/archive/" + b: reply("q", a)}, a, false,
			[]string{"0:1700000000001-a", "0:1700000000002-b"}},
		{"cycle tree", map[string]string{"x/inbox/" + a: reply("p", b), "y/archive/" + b: reply("q", a)}, a, true,
			[]string{"0:1700000000002-b", "1:1700000000001-a"}},
		{"self reply", map[string]string{"x/inbox/" + a: reply("p", a)}, a, true,
			[]string{"0:1700000000001-a"}},
		{"missing parent", map[string]string{"x/inbox/" + b: reply("p", a)}, b, false,
			[]string{"0:1700000000002-b"}},
		{"no ancestor siblings", map[string]string{
			"x/archive/" + a: msg("p", ""), "x/inbox/" + b: reply("q", a), "y/inbox/" + c: reply("r", a),
			"y/inbox/" + d: reply("s", b), "z/archive/" + e: reply("t", d),
		}, b, true, []string{"0:1700000000001-a", "1:1700000000002-b", "2:1700000000004-d", "3:1700000000005-e"}},
		{"flat sorted", map[string]string{
			"x/archive/" + a: msg("p", ""), "x/inbox/" + e: reply("q", a), "y/inbox/" + c: reply("r", a),
		}, a, false, []string{"0:1700000000001-a", "0:1700000000003-c", "0:1700000000005-e"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, _ := store(t, tt.files)
			lines, err := Thread(tr, tt.seed, tt.tree)
			if err != nil {
				t.Fatal(err)
			}
			if got := names(lines); !slices.Equal(got, tt.want) {
				t.Errorf("Thread() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestThreadLocation(t *testing.T) {
	const a = "1700000000001-aaaaaa.md"
	tr, _ := store(t, map[string]string{"b/archive/" + a: msg("one", ""), "b/inbox/" + a: msg("two", ""), "c/inbox/" + a: msg("three", "")})
	lines, err := Thread(tr, a, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 1 || lines[0].From != "two" || lines[0].Where != (Location{"b", Inbox, a}) {
		t.Errorf("Thread() = %+v, want the first copy: b/inbox", lines)
	}
}

func TestThreadErrors(t *testing.T) {
	tr, _ := store(t, nil)
	if _, err := Thread(tr, "notes.md", false); sterr.CodeOf(err) != sterr.InvalidFilename {
		t.Errorf("Thread(outside) error = %v", err)
	}
	if _, err := Thread(nil, "1700000000001-aaaaaa.md", false); sterr.CodeOf(err) != sterr.MessageNotFound {
		t.Errorf("Thread(missing) error = %v", err)
	}
}

func TestFindForReply(t *testing.T) {
	const a = "1700000000001-aaaaaa.md"
	tests := []struct {
		name     string
		files    map[string]string
		wantFrom string
		wantCode string
	}{
		{"own inbox first", map[string]string{"me/inbox/" + a: msg("bob", ""), "me/archive/" + a: msg("carol", "")}, "bob", ""},
		{"own archive", map[string]string{"me/archive/" + a: msg("carol", "")}, "carol", ""},
		{"others' archives in order", map[string]string{"zed/archive/" + a: msg("zed", ""), "amy/archive/" + a: msg("amy", "")}, "amy", ""},
		{"never others' inboxes", map[string]string{"amy/inbox/" + a: msg("amy", "")}, "", sterr.MessageNotFound},
		{"bad from", map[string]string{"me/inbox/" + a: msg("BOB", "")}, "", sterr.InvalidIdentity},
		{"untyped", map[string]string{"me/inbox/" + a: "plain"}, "", sterr.InvalidIdentity},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, _ := store(t, tt.files)
			o, err := FindForReply(tr, "me", a)
			if tt.wantCode != "" {
				if sterr.CodeOf(err) != tt.wantCode {
					t.Fatalf("error = %v, want %s", err, tt.wantCode)
				}
				return
			}
			if err != nil || o.From != tt.wantFrom {
				t.Errorf("FindForReply() = %+v, %v; want from %s", o, err, tt.wantFrom)
			}
		})
	}
}
