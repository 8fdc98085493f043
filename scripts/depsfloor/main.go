// Command depsfloor does nothing but link the libraries every st command
// carries: kong (the command line), yaml.v3 (config.yaml) and mvdan.cc/sh
// (the shell commands a hook reads). Their package initialisers, and those
// of what they import (regexp, go/doc, net/url), run before main whatever
// the command, so this is the floor st's start-up can reach while it links
// them; scripts/bench times it beside emptygo and st.
package main

import (
	_ "github.com/alecthomas/kong"
	_ "go.yaml.in/yaml/v3"
	_ "mvdan.cc/sh/v3/syntax"
)

func main() {}
