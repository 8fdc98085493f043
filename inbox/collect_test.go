package inbox

import (
	"runtime"
	"sync"
	"testing"
)

// inChunks visits every index once, in order within each chunk, and
// works a single chunk on the calling goroutine, starting none.
func TestInChunks(t *testing.T) {
	for _, n := range []int{0, 1, chunkNames, chunkNames + 1, 3*chunkNames + 7, 10 * chunkNames} {
		before := runtime.NumGoroutine()
		var mu sync.Mutex
		seen := make([]int, n)
		works, extra := 0, 0
		inChunks(n, func() func(int) {
			mu.Lock()
			works++
			mu.Unlock()
			last := -1
			return func(i int) {
				mu.Lock()
				defer mu.Unlock()
				seen[i]++
				if i <= last && i/chunkNames == last/chunkNames {
					t.Errorf("%d names: index %d after %d in one chunk", n, i, last)
				}
				last = i
				extra = max(extra, runtime.NumGoroutine()-before)
			}
		})
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("%d names: index %d worked %d times", n, i, c)
			}
		}
		if want := min(maxReaders, chunks(n)); works != want {
			t.Errorf("%d names: %d work functions, want %d", n, works, want)
		}
		if chunks(n) == 1 && extra != 0 {
			t.Errorf("%d names: %d goroutines started for one chunk", n, extra)
		}
	}
}
