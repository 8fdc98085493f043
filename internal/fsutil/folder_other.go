//go:build !linux

package fsutil

import (
	"os"
	"path/filepath"
)

// readAt reads name of the open folder dir through an os.Root on it.
func readAt(dir *os.File, name string) ([]byte, error) {
	r, err := os.OpenRoot(filepath.Clean(dir.Name()))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	t := &Tree{base: dir.Name(), root: r}
	data, _, err := t.ReadRegular(name)
	return data, err
}
