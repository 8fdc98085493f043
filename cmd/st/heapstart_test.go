package main

import (
	"bufio"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/internal/hugepagetest"
)

// Every binary clients and agents start (st, st-mcp, st-mcp-server)
// starts on a huge page (internal/heapstart), checked in the real
// process: each is asked to initialize and, once it has answered, its
// /proc/<pid>/smaps_rollup must count one. A binary that no longer
// imports heapstart has none: the Go runtime asks for no huge page itself.
func TestBinariesStartOnAHugePage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds st-mcp-server: skipped in -short mode")
	}
	// This test process imports heapstart through main.go: if it has no
	// huge page, this machine gives none.
	if kb, err := hugepagetest.AnonKB("self"); err != nil || kb == 0 {
		t.Skipf("this process holds no huge page (%d KiB, %v): the machine gives none", kb, err)
	}
	dir := filepath.Dir(mcpBuildST(t))
	root := t.TempDir()
	for _, c := range []struct{ bin, arg string }{{"st", "mcp"}, {"st-mcp", ""}, {"st-mcp-server", ""}} {
		t.Run(c.bin, func(t *testing.T) {
			cmd := exec.Command(filepath.Join(dir, c.bin))
			if c.arg != "" {
				cmd.Args = append(cmd.Args, c.arg)
			}
			cmd.Env = []string{"ST_ROOT=" + root, "ST_AGENT=alice", "HOME=" + root}
			in, _ := cmd.StdinPipe()
			out, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Wait()
			defer in.Close()
			io.WriteString(in, initLine+"\n")
			if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || !strings.Contains(line, `"serverInfo"`) {
				t.Fatalf("reply to initialize %q: %v", line, err)
			}
			kb, err := hugepagetest.AnonKB(strconv.Itoa(cmd.Process.Pid))
			if err != nil {
				t.Fatal(err)
			}
			if kb < 2048 {
				t.Errorf("%s holds %d KiB of huge pages once started, not the 2048 of its heap's start", c.bin, kb)
			}
		})
	}
}
