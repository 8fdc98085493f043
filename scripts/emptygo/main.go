// Command emptygo does nothing: it is the floor of any Go program's start,
// built by scripts/bench the way st is (static, CGO_ENABLED=0).
package main

func main() {}
