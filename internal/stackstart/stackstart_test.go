package stackstart

import (
	"os/exec"
	"strings"
	"testing"
	"unsafe"
)

// The package works only if its initialiser runs before the package
// initialisers that grow the stack deep (the YAML library's, the shell
// parser's): Go initialises a package that imports nothing first, so it
// must keep importing nothing.
func TestImportsNothing(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	if imports := strings.TrimSpace(string(out)); imports != "" {
		t.Errorf("stackstart imports %s", imports)
	}
}

// A goroutine that calls GrowDeep first uses 10 KiB of stack without its
// stack moving again; one that does not, moves.
func TestGrowDeepGrowsOnce(t *testing.T) {
	if !stackMoved(func() {}) {
		t.Fatal("a new goroutine's stack did not move in using 10 KiB: the check below proves nothing")
	}
	if stackMoved(GrowDeep) {
		t.Error("after GrowDeep the stack still moved in using 10 KiB")
	}
}

// stackMoved reports whether a new goroutine's stack moved (was copied to
// a larger one) while it used 10 KiB, after calling first.
func stackMoved(first func()) bool {
	moved := make(chan bool)
	go func() {
		first()
		var here byte
		before := uintptr(unsafe.Pointer(&here))
		spend(10 << 10)
		moved <- uintptr(unsafe.Pointer(&here)) != before
	}()
	return <-moved
}

// spend uses about n bytes of stack, 512 at a time.
//
//go:noinline
func spend(n int) byte {
	var pad [512]byte
	pad[n%len(pad)] = byte(n)
	if n <= len(pad) {
		return pad[0]
	}
	return spend(n-len(pad)) + pad[1]
}
