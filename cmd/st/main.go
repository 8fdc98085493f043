// Command st keeps the durable state of AI coding agents in plain folders:
// inboxes, statuses and restart context under $ST_ROOT. It is a drop-in
// replacement for the Node st (smalltalk); see README.md.
package main

import "os"

func main() {
	os.Exit(run(newApp(os.Args, os.Stdin, os.Stdout, os.Stderr, os.LookupEnv)))
}
