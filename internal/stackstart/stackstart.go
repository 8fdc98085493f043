// Package stackstart grows a goroutine's stack once, to what st's work
// needs, while the stack is still shallow: the main goroutine's by its
// initialiser, the goroutines that go deep (a hook's body, the scans'
// workers) by GrowDeep.
//
// A goroutine starts with 2 KiB of stack and doubles it when a call needs
// more: each time the runtime copies the stack and, for every frame on
// it, reads that function's stack maps from the binary's tables. st's
// main goroutine used to grow twice during the package initialisers, the
// second time deep inside the YAML library compiling its regular
// expressions, and each page of the tables and of the new stacks touched
// is a page fault, which is what a start costs on a virtual machine
// (docs/performance.md, "Where start-up goes": `st status` 27 page faults
// in stack growth, 12 with this package, 320 → 303 in all). Imported by
// cmd/st for its initialiser, which runs before any package that imports
// more than the runtime.
package stackstart

func init() { grow() }

// frameBytes is more than the 4 KiB a first doubling would give, so the
// runtime grows the stack from 2 KiB to 8 KiB in one step.
const frameBytes = 5 << 10

// deepFrameBytes is more than 8 KiB, so the runtime grows the stack from
// 2 KiB to 16 KiB in one step.
const deepFrameBytes = 12 << 10

// GrowDeep grows the calling goroutine's stack to 16 KiB at once. Call it
// first thing in a goroutine that goes as deep as a hook's body: reading
// a transcript's line with encoding/json, it grew three times, the last
// copying some twenty frames (docs/performance.md, "The heap on one huge
// page, and goroutines that grow once": 10 page faults fewer per hook).
//
//go:noinline
func GrowDeep() {
	var frame [deepFrameBytes]byte
	touch(frame[:])
}

// grow calls with a frame of frameBytes.
//
//go:noinline
func grow() {
	var frame [frameBytes]byte
	touch(frame[:])
}

// touch keeps frame from being optimised away.
//
//go:noinline
func touch(b []byte) { b[len(b)-1] = 1 }
