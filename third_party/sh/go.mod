module mvdan.cc/sh/v3

go 1.26.0

require (
	github.com/creack/pty v1.1.24
	github.com/go-quicktest/qt v1.102.0
	github.com/google/go-cmp v0.7.0
	github.com/google/renameio/v2 v2.0.2
	github.com/rogpeppe/go-internal v1.15.0
	golang.org/x/sys v0.47.0
	golang.org/x/term v0.45.0
	mvdan.cc/editorconfig v0.3.0
)

require (
	github.com/kr/pretty v0.3.1 // indirect
	github.com/kr/text v0.2.0 // indirect
	golang.org/x/mod v0.29.0 // indirect
	golang.org/x/sync v0.17.0 // indirect
	golang.org/x/tools v0.38.0 // indirect
)

tool golang.org/x/tools/cmd/stringer
