package main

import (
	"fmt"

	"github.com/smalltalk-go/st/internal/jsonobj"
	"github.com/smalltalk-go/st/wiring"
)

// geminiNotes tells, after an install into a Gemini CLI settings file,
// what in the file keeps the hooks from running and the trust step.
func (a *app) geminiNotes(doc *jsonobj.Object, stBin string, install bool) {
	if !install {
		return
	}
	for _, p := range wiring.GeminiSwitchProblems(doc, stBin) {
		fmt.Fprintf(a.stdout, "WARNING: %s. Change that in the file for st's hooks to run.\n", p)
	}
	fmt.Fprintln(a.stdout, wiring.GeminiTrustAdvice)
}
