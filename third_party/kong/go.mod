module github.com/alecthomas/kong

require (
	github.com/alecthomas/assert/v2 v2.11.0
	github.com/alecthomas/repr v0.5.2
)

require github.com/hexops/gotextdiff v1.0.3 // indirect

go 1.20
