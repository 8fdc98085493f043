package inbox

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// FuzzSortNames: sortNames orders any names as slices.Sort does. The
// names are built from the input: timestamps from a few values (ties
// and runs), suffixes and names of other shapes from its bytes.
func FuzzSortNames(f *testing.F) {
	f.Add([]byte("1790000000000-abcdef.md\x00notes.md"), uint8(0))
	f.Add([]byte("\x00\xff0123456789999"), uint8(200))
	f.Fuzz(func(t *testing.T, data []byte, extra uint8) {
		if len(data) == 0 {
			t.Skip()
		}
		names := make([]string, 64+int(extra))
		for i := range names {
			b := data[i%len(data)]
			suffix := string(data[i%len(data) : min(len(data), i%len(data)+int(b%8))])
			switch b % 4 {
			case 0:
				names[i] = suffix // any shape, digits included
			case 1:
				names[i] = fmt.Sprintf("%013d", uint64(b)*7919) + suffix
			default:
				names[i] = fmt.Sprintf("%013d-%s.md", 1790000000000+uint64(b%5), suffix)
			}
		}
		want := slices.Sorted(slices.Values(names))
		sortNames(names)
		if !slices.Equal(names, want) {
			t.Fatalf("sortNames = %q\nwant %q", names, want)
		}
	})
}

// messageNames are n names as a folder listing returns them: unsorted.
func messageNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("%013d-%06x.md", 1790000000000+i*37, rand.IntN(1<<24))
	}
	rand.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	return names
}

func BenchmarkSortNames(b *testing.B) {
	src := messageNames(10000)
	for _, sorter := range []struct {
		name string
		sort func([]string)
	}{{"sortNames", sortNames}, {"slices.Sort", slices.Sort[[]string]}} {
		b.Run(sorter.name, func(b *testing.B) {
			names := make([]string, len(src))
			for b.Loop() {
				copy(names, src)
				sorter.sort(names)
			}
		})
	}
}
