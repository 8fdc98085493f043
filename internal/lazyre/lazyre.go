// Package lazyre holds regular expressions compiled on first use.
//
// A package-level regexp.MustCompile, or a sync.OnceValue around one, is
// code and memory touched at every start of every st command, used or
// not; a Regexp value here is data the linker lays out, and costs
// nothing until Get.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is the expression Expr, compiled by the first Get. Declare it as
// a package-level value: var x = lazyre.Regexp{Expr: `…`}.
type Regexp struct {
	Expr string
	once sync.Once
	re   *regexp.Regexp
}

// Get returns the compiled expression; an invalid Expr panics, as
// regexp.MustCompile does.
func (r *Regexp) Get() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.Expr) })
	return r.re
}
