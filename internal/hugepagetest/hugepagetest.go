// Package hugepagetest reads how much of a process's memory the kernel
// backs with transparent huge pages, for the tests of internal/heapstart
// and of the binaries that import it.
package hugepagetest

import (
	"os"
	"strconv"
	"strings"
)

// AnonKB is the AnonHugePages that /proc/<pid>/smaps_rollup counts; pid
// "self" is this process.
func AnonKB(pid string) (int, error) {
	data, err := os.ReadFile("/proc/" + pid + "/smaps_rollup")
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "AnonHugePages:"); ok {
			return strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
		}
	}
	return 0, os.ErrNotExist
}
