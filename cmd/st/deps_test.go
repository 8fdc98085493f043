package main

import (
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// st itself links none of the large libraries its companions hold (the
// MCP SDK in st-mcp-server, goldmark in st-dashboard, the OpenTelemetry
// SDK in st-trace): every verb and hook starts as fast as a small program.
// Nor does it link Go's crypto, whose FIPS module runs initialisers at
// every start: st's digests are names, taken with internal/sha256. Nor Go's
// own parser (go/ast, go/token, go/scanner), which kong's help linked
// through go/doc for one function of go/doc/comment.
func TestStLinksNoCompanionLibrary(t *testing.T) {
	linksNone(t, ".", "go.opentelemetry.io/", "github.com/modelcontextprotocol/", "github.com/yuin/goldmark", "net/http", "crypto", "go/ast", "go/token", "go/scanner")
}

// The linker keeps only the methods a program can call. One function that
// looks a method up by a name the linker cannot see (reflect's
// MethodByName with a variable, or Method by index) makes it keep every
// exported method of every type in the binary: kong's lookups did, a
// tenth of st (11.1 → 10.0 MB), until third_party's patch named the
// methods. Checked for the two programs clients start at every hook and
// session: st and st-mcp.
func TestStLooksUpNoMethodByAVariableName(t *testing.T) {
	if testing.Short() {
		t.Skip("links st and st-mcp once more")
	}
	for _, pkg := range []string{".", "../st-mcp"} {
		for _, fn := range methodsLookedUpByName(t, pkg) {
			t.Errorf("%s: %s looks a method up by a variable name", pkg, fn)
		}
	}
}

// methodsLookedUpByName links pkg with the linker's dependency dump and
// returns the functions it marks <ReflectMethod>, sorted.
func methodsLookedUpByName(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "build", "-o", filepath.Join(t.TempDir(), "bin"), "-ldflags=-dumpdep", pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go build -ldflags=-dumpdep %s: %v\n%.2000s", pkg, err, out)
	}
	// Each line is an edge of the linker's graph, "from -> to", a symbol
	// followed by <ReflectMethod> where it looks methods up so.
	edges, looksUp := 0, map[string]bool{}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if !slices.Contains(fields, "->") {
			continue
		}
		edges++
		for i, field := range fields {
			if field == "<ReflectMethod>" && i > 0 {
				looksUp[fields[i-1]] = true
			}
		}
	}
	if edges < 1000 {
		t.Fatalf("the linker printed %d edges for %s: %.2000s", edges, pkg, out)
	}
	return slices.Sorted(maps.Keys(looksUp))
}

// st-mcp, which clients start for every session, is the front: it links
// nothing of the MCP SDK, whose initialisers alone take longer than the
// opening it answers. The SDK is st-mcp-server's.
func TestSTMCPLinksNoSDK(t *testing.T) {
	linksNone(t, "../st-mcp", "github.com/modelcontextprotocol/", "net/http", "crypto/tls")
}

// linksNone fails when pkg links a package whose path starts with one of
// prefixes.
func linksNone(t *testing.T, pkg string, prefixes ...string) {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", pkg).Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps printed %d packages: %q", len(deps), out)
	}
	for _, dep := range deps {
		for _, big := range prefixes {
			if strings.HasPrefix(dep, big) {
				t.Errorf("%s links %s", pkg, dep)
			}
		}
	}
}

// tracedInit is one initialiser GODEBUG=inittrace=1 reported.
type tracedInit struct {
	pkg    string
	allocs int
	line   string
}

// tracedInits runs st --version with GODEBUG=inittrace=1 and returns the
// initialisers it ran, in order.
func tracedInits(t *testing.T) []tracedInit {
	t.Helper()
	cmd := exec.Command(stBinary(t), "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("st --version: %v\n%s", err, out)
	}
	var inits []tracedInit
	for line := range strings.Lines(string(out)) {
		// "init go.yaml.in/yaml/v3 @0.9 ms, 0.1 ms clock, 6096 bytes, 41 allocs"
		fields := strings.Fields(line)
		if len(fields) < 2 || fields[0] != "init" {
			continue
		}
		allocs, err := strconv.Atoi(fields[len(fields)-2])
		if err != nil {
			t.Fatalf("no allocation count in %q", line)
		}
		inits = append(inits, tracedInit{fields[1], allocs, strings.TrimSpace(line)})
	}
	if len(inits) == 0 {
		t.Fatalf("GODEBUG=inittrace=1 traced no initialiser:\n%s", out)
	}
	return inits
}

// st's own packages build nothing before main: every start of every
// command would pay for it in page faults (docs/performance.md, "Where
// start-up goes"). Tables are switches, constants or functions, and
// regular expressions lazyre values. stackstart's and heapstart's
// initialisers are their purpose.
func TestOwnPackagesInitialiseNothing(t *testing.T) {
	for _, traced := range tracedInits(t) {
		pkg, ours := strings.CutPrefix(traced.pkg, "github.com/smalltalk-go/st/")
		if ours && pkg != "internal/stackstart" && pkg != "internal/heapstart" {
			t.Errorf("%s runs an initialiser: %s", traced.pkg, traced.line)
		}
	}
}

// heapstart's initialiser is the first after the runtime's: an
// initialiser that runs before it faults a page of the heap block it
// collapses for each size of allocation it makes.
func TestHeapStartRunsFirst(t *testing.T) {
	var order []string
	for _, traced := range tracedInits(t) {
		order = append(order, traced.pkg)
	}
	runtime := slices.Index(order, "runtime")
	heap := slices.Index(order, "github.com/smalltalk-go/st/internal/heapstart")
	if runtime < 0 || heap < 0 {
		t.Fatalf("GODEBUG=inittrace=1 traced no initialiser of the runtime or heapstart: %q", order)
	}
	if heap != runtime+1 {
		t.Errorf("initialisers between the runtime's and heapstart's: %q", order[runtime+1:heap])
	}
}

// The libraries every st command links compile no regular expression
// before main: kong, yaml.v3 and the shell parser's fileutil declare five
// at package level, and third_party's patches compile each on its first
// use (a program that compiles the five at start runs 1.18× an empty
// one; st 0.05–0.08× faster without them, docs/performance.md).
// Compiling one allocates dozens of times: upstream's initialisers
// allocate 54 (kong), 276 (yaml.v3, with its tables) and 104 (fileutil)
// times; the patched kong's and yaml.v3's 0 and 41, and fileutil has no
// initialiser left (noInit).
func TestLibrariesCompileNoRegexpBeforeMain(t *testing.T) {
	const noInit = -1
	bounds := map[string]int{
		"github.com/alecthomas/kong": 10,
		"go.yaml.in/yaml/v3":         100,
		"mvdan.cc/sh/v3/fileutil":    noInit,
	}
	for _, traced := range tracedInits(t) {
		bound, ok := bounds[traced.pkg]
		if !ok {
			continue
		}
		delete(bounds, traced.pkg)
		switch {
		case bound == noInit:
			t.Errorf("%s has an initialiser (%d allocations): is third_party's patch in use?", traced.pkg, traced.allocs)
		case traced.allocs > bound:
			t.Errorf("%s's initialiser allocates %d times (at most %d): is third_party's patch in use?", traced.pkg, traced.allocs, bound)
		}
	}
	for pkg, bound := range bounds {
		if bound != noInit {
			t.Errorf("GODEBUG=inittrace=1 traced no initialiser of %s", pkg)
		}
	}
}

// third_party holds exactly upstream's files, at the versions go.mod
// requires, with the patches in third_party/patches: nothing else of
// those libraries is changed by hand.
func TestThirdPartyIsUpstreamPlusPatch(t *testing.T) {
	out, err := exec.Command("../../scripts/third-party", "--check").CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 3 {
		t.Skipf("upstream cannot be downloaded here: %s", out)
	}
	if err != nil {
		t.Fatalf("scripts/third-party --check: %v\n%s", err, out)
	}
}
