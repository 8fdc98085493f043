package main

import "testing"

func TestRendersDeep(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"status"}, false},
		{[]string{"agents"}, false},
		{[]string{"agents", "--json"}, true},
		{[]string{"message", "ls", "alice", "--json"}, true},
		{[]string{"help"}, true},
		{[]string{"help", "status"}, true},
		{[]string{"--help"}, true},
		{[]string{"-h"}, true},
		{[]string{"message", "ls", "--help"}, true},
		{[]string{"message", "send", "bob", "-m", "json"}, false},
		{[]string{"hook", "post-tool-use"}, false},
		{[]string{"hook", "session-start", "--json"}, false},
		{[]string{"hook", "--help"}, true},
	} {
		if got := rendersDeep(tc.args); got != tc.want {
			t.Errorf("rendersDeep(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}
