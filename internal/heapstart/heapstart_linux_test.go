package heapstart

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// hugeAtStart is the AnonHugePages of the mapping holding first as
// TestMain found it, before any test ran.
var hugeAtStart int

func TestMain(m *testing.M) {
	hugeAtStart = anonHugeKB(uintptr(unsafe.Pointer(first)))
	os.Exit(m.Run())
}

// The heap's first block is one huge page once the initialiser has run,
// wherever this kernel can give one: if it was not, and a collapse now
// succeeds, the initialiser did not do its work.
func TestInitCollapsesTheHeapStart(t *testing.T) {
	if hugeAtStart >= hugePage>>10 {
		return
	}
	if err := collapse(first); err != nil {
		t.Skipf("this machine gives no huge page (%v); the heap started on %d KiB of them", err, hugeAtStart)
	}
	t.Errorf("the heap started on %d KiB of huge pages, yet a collapse now succeeds", hugeAtStart)
}

// anonHugeKB reads /proc/self/smaps for the AnonHugePages of the mapping
// holding addr; -1 when there is none.
func anonHugeKB(addr uintptr) int {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return -1
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := mappingRange(line); ok {
			in = lo <= addr && addr < hi
			continue
		}
		if kb, ok := strings.CutPrefix(line, "AnonHugePages:"); in && ok {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")))
			if err != nil {
				return -1
			}
			return n
		}
	}
	return -1
}

// mappingRange parses the "start-end" that opens a mapping's lines in
// smaps ("7f01c0000000-7f01c0021000 rw-p 00000000 00:00 0").
func mappingRange(line string) (lo, hi uintptr, ok bool) {
	span, _, _ := strings.Cut(line, " ")
	a, b, found := strings.Cut(span, "-")
	if !found {
		return 0, 0, false
	}
	x, err1 := strconv.ParseUint(a, 16, 64)
	y, err2 := strconv.ParseUint(b, 16, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return uintptr(x), uintptr(y), true
}
