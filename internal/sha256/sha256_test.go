package sha256

import (
	stdsha256 "crypto/sha256"
	"os/exec"
	"strings"
	"testing"
)

// Every length around the block and padding boundaries, and a few long
// inputs, digest to crypto/sha256's bytes: the digests name files that
// st versions built either way share.
func TestSum256(t *testing.T) {
	data := make([]byte, 1000)
	for i := range data {
		data[i] = byte(i*7 + i>>8)
	}
	for n := 0; n <= len(data); n++ {
		if got, want := Sum256(data[:n]), stdsha256.Sum256(data[:n]); got != want {
			t.Fatalf("Sum256 of %d bytes = %x, want %x", n, got, want)
		}
	}
	// FIPS 180-4's example "abc".
	if got := Sum256([]byte("abc")); string(got[:4]) != "\xba\x78\x16\xbf" {
		t.Errorf(`Sum256("abc") = %x`, got)
	}
}

func FuzzSum256(f *testing.F) {
	f.Add([]byte(""))
	f.Add([]byte("/home/alice/project"))
	f.Add([]byte(strings.Repeat("x", 55)))
	f.Add([]byte(strings.Repeat("x", 64)))
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Sum256(data), stdsha256.Sum256(data); got != want {
			t.Fatalf("Sum256(%q) = %x, want %x", data, got, want)
		}
	})
}

// The package exists to link no crypto and run no initialiser: it must
// import nothing that brings either.
func TestImportsNoInitialiser(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Deps " "}}`, ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if !strings.HasPrefix(dep, "internal/") && dep != "math/bits" && dep != "unsafe" {
			t.Errorf("sha256 depends on %s", dep)
		}
	}
}
