package message

import (
	"strings"
	"testing"
	"time"
)

func TestIsCanonical(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"1714826789012-abcdef.md", true},
		{"1714826789012-ilouxx.md", true}, // i l o u accepted by the validator
		{"1714826789012-000000.md", true},
		{"1714826789012-ABCDEF.md", false},
		{"1714826789012-abcdeF.md", false},
		{"171482678901-abcdef.md", false},   // 12 digits
		{"17148267890123-abcdef.md", false}, // 14 digits
		{"1714826789012-abcdef.txt", false},
		{"1714826789012-abcdef.MD", false},
		{"1714826789012-abcdef.md.tmp", false},
		{"1714826789012-operator-abcdef.md", false}, // legacy three-part
		{"1714826789012-abcde.md", false},
		{"1714826789012-abcdefg.md", false},
		{"1714826789012_abcdef.md", false},
		{".1714826789012-abcdef.md", false},
		{"1714826789012-abc-ef.md", false},
		{"1714826789012-abcdef.options.json", false},
		{"", false},
		{"garbage", false},
	}
	for _, tt := range tests {
		if got := IsCanonical(tt.name); got != tt.want {
			t.Errorf("IsCanonical(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestPrefix(t *testing.T) {
	tests := []struct {
		name, want string
		ok         bool
	}{
		{"1714826789012-abcdef.md", "1714826789012-abcdef", true},
		{"1714826789012-abcdef.options.json", "1714826789012-abcdef", true},
		{"1714826789012-abcdef.foo.md", "1714826789012-abcdef", true},
		{"1714826789012-abcdef.x", "1714826789012-abcdef", true},
		{"1714826789012-abcdef.", "", false}, // needs .+ after the dot
		{"1714826789012-abcdef", "", false},
		{"1714826789012-abcdefg.md", "", false},
		{"1714826789012-ABCDEF.md", "", false},
		{"171482678901-abcdef.md", "", false},
		{"notes.md", "", false},
	}
	for _, tt := range tests {
		got, ok := Prefix(tt.name)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Prefix(%q) = %q, %v; want %q, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestIsAttachment(t *testing.T) {
	for name, want := range map[string]bool{
		"1714826789012-abcdef.options.json": true,
		"1714826789012-abcdef.foo.md":       true,
		"1714826789012-abcdef.md":           false,
		"notes.md":                          false,
	} {
		if got := IsAttachment(name); got != want {
			t.Errorf("IsAttachment(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestIsOutside(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"notes.md", true},
		{"Hello World.md", true},
		{"a.md", true},
		{"1714826789012-ABCDEF.md", true}, // not canonical, no prefix
		{"1714826789012-operator-abcdef.md", true},
		{".md", false},
		{"x.md.txt", false},
		{".hidden.md", false},
		{"a/b.md", false},
		{`a\b.md`, false},
		{"1714826789012-abcdef.md", false},
		{"1714826789012-abcdef.foo.md", false}, // attachment
		{"notes.MD", false},
		{"notes", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := IsOutside(tt.name); got != tt.want {
			t.Errorf("IsOutside(%q) = %v, want %v", tt.name, got, tt.want)
		}
		if got, want := IsDeliverable(tt.name), tt.want || IsCanonical(tt.name); got != want {
			t.Errorf("IsDeliverable(%q) = %v, want %v", tt.name, got, want)
		}
	}
}

func TestNewName(t *testing.T) {
	now := time.UnixMilli(1714826789012)
	seen := map[string]bool{}
	for range 1000 {
		n := NewName(now)
		if !IsCanonical(n) {
			t.Fatalf("NewName = %q, not canonical", n)
		}
		if !strings.HasPrefix(n, "1714826789012-") || Timestamp(n) != 1714826789012 {
			t.Fatalf("NewName = %q, wrong timestamp", n)
		}
		for _, c := range n[14:20] {
			if !strings.ContainsRune(crockford, c) {
				t.Fatalf("NewName = %q: %q outside the Crockford alphabet", n, c)
			}
		}
		seen[n] = true
	}
	if len(seen) < 990 {
		t.Errorf("only %d distinct names of 1000", len(seen))
	}
	// Early dates keep 13 digits? Names before 2001 have fewer: document it.
	if n := NewName(time.UnixMilli(1_000_000_000_000)); !IsCanonical(n) {
		t.Errorf("NewName(2001) = %q, not canonical", n)
	}
}

func TestTimestamp(t *testing.T) {
	if got := Timestamp("1714826789012-abcdef.md"); got != 1714826789012 {
		t.Errorf("Timestamp = %d", got)
	}
	if got := Timestamp("0000000000001-abcdef.options.json"); got != 1 {
		t.Errorf("Timestamp = %d", got)
	}
}

// FuzzFilename checks that the name predicates agree with each other and
// that nothing they accept could be a path or a hidden file.
func FuzzFilename(f *testing.F) {
	for _, s := range []string{"1714826789012-abcdef.md", "notes.md", ".x.md", "1714826789012-abcdef.options.json", "a/b.md", "1714826789012-abcdef.", ".md"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		canon, outside := IsCanonical(name), IsOutside(name)
		prefix, hasPrefix := Prefix(name)
		if canon && outside {
			t.Fatalf("%q both canonical and outside", name)
		}
		if canon && (!hasPrefix || prefix != name[:20]) {
			t.Fatalf("canonical %q has prefix %q, %v", name, prefix, hasPrefix)
		}
		if outside && hasPrefix {
			t.Fatalf("outside %q has a prefix", name)
		}
		if hasPrefix && (len(prefix) != 20 || !strings.HasPrefix(name, prefix+".")) {
			t.Fatalf("Prefix(%q) = %q", name, prefix)
		}
		if IsAttachment(name) != (hasPrefix && !canon) {
			t.Fatalf("IsAttachment(%q) inconsistent", name)
		}
		// Prefix follows the regex ^(...)\..+$ exactly, so only the names
		// that are opened by name must be single safe path elements.
		if canon || outside {
			if name[0] == '.' || strings.ContainsAny(name, "/\\") {
				t.Fatalf("accepted unsafe name %q", name)
			}
		}
		if canon && Timestamp(name) < 0 {
			t.Fatalf("negative timestamp for %q", name)
		}
	})
}
