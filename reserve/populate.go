package reserve

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Populate writes agents x per active reservations of the repository at
// top (known by its path only) into the store at root, as Reserve writes them, for
// benchmarks (scripts/bench through benchtimer, and this package's):
// mostly disjoint folders, files and globs, with every tenth one
// clashing with another agent's. With wild, every pattern starts with a
// wildcard, the worst case for telling pairs apart.
func Populate(root, top string, agents, per int, wild bool) error {
	created := time.UnixMilli(1_800_000_000_000).UTC()
	for a := 1; a <= agents; a++ {
		agent := fmt.Sprintf("agent%d", a)
		dir := filepath.Join(root, agent, Folder)
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return err
		}
		for i := range per {
			var p string
			switch {
			case wild:
				p = fmt.Sprintf("**/a%d/s%d/*.go", a, i)
			case i%10 == 9:
				p = fmt.Sprintf("pkg%d/sub0/x%d.go", a%agents+1, i) // inside another agent's folder
			case i%3 == 0:
				p = fmt.Sprintf("pkg%d/sub%d/**", a, i)
			case i%3 == 1:
				p = fmt.Sprintf("pkg%d/sub%d/*.go", a, i)
			default:
				p = fmt.Sprintf("pkg%d/sub%d/file%d.go", a, i, i)
			}
			r := Reservation{ID: fmt.Sprintf("%d-%06d", created.UnixMilli()+int64(i), a*100000+i), Agent: agent,
				Repo: top, Pattern: p, Mode: Exclusive,
				Reason: "benchmark", Host: "bench", Created: created, Expires: created.Add(100 * 365 * 24 * time.Hour)}
			data, _ := json.MarshalIndent(r, "", "  ")
			if err := os.WriteFile(filepath.Join(dir, r.ID+recordSuffix), append(data, '\n'), 0o666); err != nil {
				return err
			}
		}
	}
	return nil
}
