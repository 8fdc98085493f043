package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// BenchmarkMCPInitialize measures a real `st mcp` binary from exec to its
// reply to initialize (the client's wait before it can list tools).
func BenchmarkMCPInitialize(b *testing.B) {
	bin := mcpBuildST(b)
	root := b.TempDir()
	b.ResetTimer()
	for b.Loop() {
		cmd := exec.Command(bin, "mcp", "--channel")
		cmd.Env = []string{"ST_ROOT=" + root, "ST_AGENT=alice", "HOME=" + root}
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		io.WriteString(in, initLine+"\n")
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil || !strings.Contains(line, `"serverInfo"`) {
			b.Fatalf("reply %q: %v", line, err)
		}
		b.StopTimer()
		in.Close()
		cmd.Wait()
		b.StartTimer()
	}
}

// BenchmarkExecVersion is the floor for BenchmarkMCPInitialize: exec of
// the same binary doing nothing (`st --version`) and its exit.
func BenchmarkExecVersion(b *testing.B) {
	bin := mcpBuildST(b)
	for b.Loop() {
		if err := exec.Command(bin, "--version").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMCPShutdown measures a real `st mcp` from the client closing
// stdin, or a signal, to the process being gone ("offline" written).
func BenchmarkMCPShutdown(b *testing.B) {
	bin := mcpBuildST(b)
	for _, how := range []string{"stdin", "SIGTERM"} {
		b.Run(how, func(b *testing.B) {
			root := b.TempDir()
			for b.Loop() {
				b.StopTimer()
				cmd := exec.Command(bin, "mcp", "--channel")
				cmd.Env = []string{"ST_ROOT=" + root, "ST_AGENT=alice", "HOME=" + root}
				in, _ := cmd.StdinPipe()
				out, _ := cmd.StdoutPipe()
				if err := cmd.Start(); err != nil {
					b.Fatal(err)
				}
				io.WriteString(in, initLine+"\n")
				if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if how == "stdin" {
					in.Close()
				} else {
					cmd.Process.Signal(syscall.SIGTERM)
				}
				if err := cmd.Wait(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// mcpBuildST builds st, st-mcp and st-mcp-server into one folder, as the
// README installs them, and returns st's path.
func mcpBuildST(b testing.TB) string {
	b.Helper()
	dir := b.TempDir()
	for _, pkg := range []string{".", "../st-mcp", "../st-mcp-server"} {
		build := exec.Command("go", "build", "-o", dir, pkg)
		build.Env = append(os.Environ(), "CGO_ENABLED=0") // static, as the README installs it
		if out, err := build.CombinedOutput(); err != nil {
			b.Fatalf("build %s: %v\n%s", pkg, err, out)
		}
	}
	return filepath.Join(dir, "st")
}

const initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`
