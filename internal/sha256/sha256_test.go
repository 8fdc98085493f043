package sha256

import (
	std "crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

func TestSum256KnownAnswers(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
	}
	for _, tt := range tests {
		sum := Sum256([]byte(tt.in))
		if got := hex.EncodeToString(sum[:]); got != tt.want {
			t.Errorf("Sum256(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// Every length around the block and padding boundaries.
func TestSum256MatchesCryptoSHA256(t *testing.T) {
	for n := range 300 {
		data := []byte(strings.Repeat("st-", n))[:n]
		if got, want := Sum256(data), std.Sum256(data); got != want {
			t.Fatalf("Sum256 of %d bytes = %x, crypto/sha256 %x", n, got, want)
		}
	}
}

func FuzzSum256(f *testing.F) {
	f.Add([]byte("/tmp/st/root"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Sum256(data), std.Sum256(data); got != want {
			t.Fatalf("Sum256(%q) = %x, crypto/sha256 %x", data, got, want)
		}
	})
}
