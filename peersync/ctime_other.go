//go:build !linux

package peersync

import (
	"io/fs"
	"time"
)

func ctime(fs.FileInfo) (time.Time, bool) { return time.Time{}, false }
