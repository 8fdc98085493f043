package gemini

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The loopback guard the client runs under refuses and records a
// connection and a name lookup off loopback, and lets loopback through:
// without it, the tests' "nothing left loopback" would prove nothing.
func TestGuardRefusesOffLoopback(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "offloop.log")
	script := `
const net = require('net'), dns = require('dns');
const s = net.connect(443, '192.0.2.1');
s.on('error', e => { console.log('refused ' + e.code);
  dns.lookup('example.invalid', err => { console.log('lookup ' + (err && err.code));
    const srv = net.createServer(c => c.end()).listen(0, '127.0.0.1', () => {
      net.connect(srv.address().port, '127.0.0.1').on('connect', () => { console.log('loopback ok'); process.exit(0); });
    });
  });
});`
	cmd := exec.Command("node", "-e", script)
	cmd.Env = append(os.Environ(), "NODE_OPTIONS=--require "+guardJS, "ST_E2E_OFFLOOP_LOG="+log)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"refused ECONNREFUSED", "lookup ENOTFOUND", "loopback ok"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("node printed %q, want %q in it", out, want)
		}
	}
	data, _ := os.ReadFile(log)
	if !strings.Contains(string(data), "connect 192.0.2.1:443") || !strings.Contains(string(data), "lookup example.invalid") {
		t.Errorf("the guard's log: %q", data)
	}
}
