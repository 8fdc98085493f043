package heapstart

import (
	"os"
	"testing"

	"github.com/smalltalk-go/st/internal/hugepagetest"
)

// hugeAtStart is the AnonHugePages of this process as TestMain found it,
// before any test ran: the Go runtime asks for no huge page itself, so
// any is the initialiser's.
var hugeAtStart int

func TestMain(m *testing.M) {
	if kb, err := hugepagetest.AnonKB("self"); err == nil {
		hugeAtStart = kb
	} else {
		hugeAtStart = -1
	}
	os.Exit(m.Run())
}

// The heap's first block is one huge page once the initialiser has run,
// wherever this kernel can give one: if it was not, and a collapse now
// succeeds, the initialiser did not do its work.
func TestInitCollapsesTheHeapStart(t *testing.T) {
	if hugeAtStart >= hugePage>>10 {
		return
	}
	if errno := collapse(first); errno != 0 {
		t.Skipf("this machine gives no huge page (errno %d); the heap started on %d KiB of them", errno, hugeAtStart)
	}
	t.Errorf("the heap started on %d KiB of huge pages, yet a collapse now succeeds", hugeAtStart)
}
