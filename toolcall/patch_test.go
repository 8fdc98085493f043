package toolcall

import (
	"slices"
	"testing"
)

func TestPatchPaths(t *testing.T) {
	tests := []struct {
		name, patch string
		want        []string
	}{
		{"add (as Codex 0.169 sent it)", "*** Begin Patch\n*** Add File: hello.txt\n+hi there\n*** End Patch\n", []string{"hello.txt"}},
		{"every kind, in order, each once",
			"*** Begin Patch\n*** Update File: src/a.go\n@@\n-x\n+y\n*** Move to: src/b.go\n*** Delete File: old/c.go\n" +
				"*** Add File: /abs/d.go\n+d\n*** Update File: src/a.go\n@@\n z\n*** End Patch",
			[]string{"src/a.go", "src/b.go", "old/c.go", "/abs/d.go"}},
		{"whitespace around markers and CRLF", "  *** Begin Patch\r\n\t*** Update File:  spaced name.go \r\n@@\r\n-a\r\n+b\r\n*** End Patch\r\n",
			[]string{"spaced name.go"}},
		{"content lines are not markers",
			"*** Begin Patch\n*** Add File: a\n+*** Update File: not-a\n*** Update File: b\n@@\n-*** Delete File: not-b\n+x\n*** End Patch\n",
			[]string{"a", "b"}},
		{"outside the patch", "*** Update File: before\n*** Begin Patch\n*** Delete File: in\n*** End Patch\n*** Update File: after\n",
			[]string{"in"}},
		{"two patches", "*** Begin Patch\n*** Delete File: one\n*** End Patch\n*** Begin Patch\n*** Delete File: two\n*** End Patch\n",
			[]string{"one", "two"}},
		{"unterminated patch still counts", "*** Begin Patch\n*** Update File: x.go\n@@\n-a\n", []string{"x.go"}},
		{"empty path", "*** Begin Patch\n*** Add File: \n*** Add File:   \n*** End Patch\n", nil},
		{"no begin", "*** Update File: x.go\n", nil},
		{"marker without the space", "*** Begin Patch\n*** Add File:x\n*** End Patch\n", nil},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PatchPaths(tt.patch); !slices.Equal(got, tt.want) {
				t.Errorf("PatchPaths = %q, want %q", got, tt.want)
			}
		})
	}
}
