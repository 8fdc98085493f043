package agents

import "testing"

func TestClosest(t *testing.T) {
	ids := []string{"alice", "bob", "carol", "reviewer", "ci"}
	tests := []struct{ name, want string }{
		{"bbo", "bob"},     // transposition
		{"bobb", "bob"},    // insertion
		{"alcie", "alice"}, // transposition
		{"alce", "alice"},  // deletion
		{"revewer", "reviewer"},
		{"carl", "carol"},
		{"bob", ""},  // itself is not a suggestion
		{"dave", ""}, // nothing near
		{"ca", ""},   // two letters: too short to guess
		{"zzzzzzzz", ""},
		{"cj", ""},
	}
	for _, tt := range tests {
		if got := Closest(ids, tt.name); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "ab", 2}, {"bob", "bbo", 1}, {"kitten", "sitting", 3},
		{"bob", "bob", 0}, {"ab", "ba", 1}, {"abc", "ca", 3}, {"héllo", "hello", 1},
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := editDistance(tt.b, tt.a); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.b, tt.a, got, tt.want)
		}
	}
}
