package fleet

import "testing"

// A root's folder of home marks keeps the name earlier versions gave it
// (the first 8 bytes of SHA-256 of the root's absolute path), so marks
// written before an upgrade are still read after it.
func TestHomeKeyStays(t *testing.T) {
	key, abs := homeKey("/nonexistent/st-root")
	if key != "f4df192dd8e6fd82" || abs != "/nonexistent/st-root" {
		t.Errorf("homeKey = %s, %s", key, abs)
	}
}
