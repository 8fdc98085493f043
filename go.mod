module github.com/smalltalk-go/st

go 1.26.8

require (
	github.com/alecthomas/kong v1.17.0
	github.com/fsnotify/fsnotify v1.10.1
	github.com/gofrs/flock v0.13.2
	github.com/google/renameio/v2 v2.0.2
	golang.org/x/sys v0.49.0
	gopkg.in/yaml.v3 v3.0.1
)

// Test-only: testscript runs the end-to-end tests of cmd/st; x/tools
// comes with it.
require (
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/tools v0.26.0 // indirect
)
