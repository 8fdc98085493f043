package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestCompanion finds st-mcp next to the running st first, then in PATH,
// and reports "" when neither has it.
func TestCompanion(t *testing.T) {
	self, other, empty := t.TempDir(), t.TempDir(), t.TempDir()
	for _, p := range []string{filepath.Join(self, "st"), filepath.Join(self, "st-mcp"), filepath.Join(other, "st-mcp"), filepath.Join(empty, "st")} {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		argv0, path, want string
	}{
		{filepath.Join(self, "st"), other, filepath.Join(self, "st-mcp")},
		{filepath.Join(empty, "st"), other, filepath.Join(other, "st-mcp")},
		{filepath.Join(empty, "st"), "", ""},
	}
	for _, tt := range tests {
		env := map[string]string{"PATH": tt.path}
		a := newApp([]string{tt.argv0}, nil, io.Discard, io.Discard, func(k string) (string, bool) { v, ok := env[k]; return v, ok })
		if got := a.companion("st-mcp"); got != tt.want {
			t.Errorf("companion from %s with PATH=%q = %q, want %q", tt.argv0, tt.path, got, tt.want)
		}
	}
}
