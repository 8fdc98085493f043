package inbox

import (
	"slices"
	"testing"
)

func TestReadLazySweep(t *testing.T) {
	tests := []struct {
		name       string
		files      map[string]string
		archive    bool
		wantFolder string
		wantInbox  bool
	}{
		{"identical twin swept", map[string]string{"a/inbox/" + fn: "m", "a/archive/" + fn: "m"}, false, Archive, false},
		{"divergent twin kept", map[string]string{"a/inbox/" + fn: "m", "a/archive/" + fn: "n"}, false, Inbox, true},
		{"--archive reads archive, no sweep", map[string]string{"a/inbox/" + fn: "m", "a/archive/" + fn: "m"}, true, Archive, true},
		{"inbox only", map[string]string{"a/inbox/" + fn: "m"}, true, Inbox, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, root := store(t, tt.files)
			l, _, err := Read(tr, "a", fn, tt.archive)
			if err != nil {
				t.Fatal(err)
			}
			if l.Folder != tt.wantFolder {
				t.Errorf("folder = %s, want %s", l.Folder, tt.wantFolder)
			}
			if got := exists(root, "a/inbox/"+fn); got != tt.wantInbox {
				t.Errorf("inbox copy present = %v, want %v", got, tt.wantInbox)
			}
		})
	}
}

func TestProject(t *testing.T) {
	tests := []struct {
		name, file, text string
		want             Projection
	}{
		{"typed", fn, "---\nfrom: bob\nsubject: hi\ntags: [a, \"b c\"]\npriority: high\n---\nbody\n",
			Projection{From: "bob", Body: "body\n", Subject: "hi", Tags: []string{"a", "b c"}, Priority: "high"}},
		{"invalid priority and empty tags dropped", fn, "---\nfrom: bob\ntags: []\npriority: urgent\n---\nb",
			Projection{From: "bob", Body: "b"}},
		{"untyped", fn, "plain\n", Projection{Body: "plain\n"}},
		{"crlf is untyped", fn, "---\r\nfrom: bob\r\n---\r\nx", Projection{Body: "---\r\nfrom: bob\r\n---\r\nx"}},
		{"outside ignores frontmatter", "notes.md", "---\nfrom: bob\n---\nx", Projection{Body: "---\nfrom: bob\n---\nx"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Project(tt.file, tt.text)
			if got.From != tt.want.From || got.Body != tt.want.Body || got.Subject != tt.want.Subject ||
				got.Priority != tt.want.Priority || !slices.Equal(got.Tags, tt.want.Tags) || (got.Tags == nil) != (tt.want.Tags == nil) {
				t.Errorf("Project() = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestTextReplacesInvalidUTF8(t *testing.T) {
	if got, want := Text([]byte("a\xffb")), "a\uFFFDb"; got != want {
		t.Errorf("Text() = %q, want %q", got, want)
	}
}
