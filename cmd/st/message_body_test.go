package main

import (
	"testing"
	"time"
)

// ST_STDIN_TIMEOUT_MS is a plain decimal number of milliseconds; Go's
// other number forms (1_000, hex floats, exponents) mean the default.
func TestStdinTimeout(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"200", 200 * time.Millisecond},
		{" 1.5 ", 1500 * time.Microsecond},
		{"", defaultStdinTimeout},
		{"0", defaultStdinTimeout},
		{"-5", defaultStdinTimeout},
		{"1_000", defaultStdinTimeout},
		{"0x1p4", defaultStdinTimeout},
		{"1e3", defaultStdinTimeout},
		{"Infinity", defaultStdinTimeout},
	}
	for _, tt := range tests {
		if got := stdinTimeout(tt.in); got != tt.want {
			t.Errorf("stdinTimeout(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
