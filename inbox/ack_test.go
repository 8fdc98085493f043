package inbox

import (
	"slices"
	"testing"
)

// UnackedKnowing reads only what it was not told is quiet: an archived
// name the caller remembers as quiet is not read again (so even a file
// that now asks is not reported), and the quiet names it returns are the
// archive's, old and newly read, sorted, without the inbox's, the asking
// or the acknowledged ones.
func TestUnackedKnowing(t *testing.T) {
	ask := msg("bob", "ack: required\n")
	tree, _ := store(t, map[string]string{
		"alice/inbox/1700000000005-eeeeee.md":   ask,
		"alice/inbox/1700000000006-ffffff.md":   msg("bob", ""),
		"alice/archive/1700000000001-aaaaaa.md": ask, // remembered as quiet: not read
		"alice/archive/1700000000002-bbbbbb.md": ask,
		"alice/archive/1700000000003-cccccc.md": msg("bob", ""),
		"alice/archive/1700000000004-dddddd.md": ask,
		"alice/acks/1700000000004-dddddd.md":    "acked: 2023-11-14T22:13:20Z\n",
	})
	tests := []struct {
		name        string
		quiet       []string
		wantUnacked []string
		wantQuiet   []string
	}{
		{"nothing remembered", nil,
			[]string{"1700000000001-aaaaaa.md", "1700000000002-bbbbbb.md", "1700000000005-eeeeee.md"},
			[]string{"1700000000003-cccccc.md"}},
		{"one remembered", []string{"1700000000001-aaaaaa.md"},
			[]string{"1700000000002-bbbbbb.md", "1700000000005-eeeeee.md"},
			[]string{"1700000000001-aaaaaa.md", "1700000000003-cccccc.md"}},
		{"a remembered name no longer archived", []string{"1700000000000-gggggg.md", "1700000000003-cccccc.md"},
			[]string{"1700000000001-aaaaaa.md", "1700000000002-bbbbbb.md", "1700000000005-eeeeee.md"},
			[]string{"1700000000003-cccccc.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			unacked, quiet := UnackedKnowing(tree, "alice", tt.quiet)
			if !slices.Equal(unacked, tt.wantUnacked) || !slices.Equal(quiet, tt.wantQuiet) {
				t.Errorf("UnackedKnowing = %q, quiet %q; want %q, quiet %q", unacked, quiet, tt.wantUnacked, tt.wantQuiet)
			}
		})
	}
	if got := Unacked(tree, "alice"); !slices.Equal(got, tests[0].wantUnacked) {
		t.Errorf("Unacked = %q, want %q", got, tests[0].wantUnacked)
	}
}
