package dashboard

import (
	"net/http/httptest"
	"syscall"
	"testing"
	"time"
)

// The first paint at the target scale (500 agents × 100 messages, one
// 100 MB event log): the fleet page served from the kept rows, and the
// page of the agent with the big log. Run:
//
//	go test ./dashboard -run '^$' -bench . -benchtime 50x
func BenchmarkFleetPage(b *testing.B) {
	s := newServer(b, bigFleet(b))
	benchPage(b, s, "/")
}

func BenchmarkAgentPageBigLog(b *testing.B) {
	s := newServer(b, bigFleet(b))
	benchPage(b, s, "/agent/"+scaleID(0))
}

// BenchmarkStart is the one-time cost of summarising the whole fleet
// when the server starts (before its first page).
func BenchmarkStart(b *testing.B) {
	root := bigFleet(b)
	for b.Loop() {
		s := newServer(b, root)
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
}

// benchPage reports the wall time and, since the machines these run on
// are often shared, the process's CPU time per page too.
func benchPage(b *testing.B, s *Server, path string) {
	h := s.Handler()
	var size int
	cpu0 := cpuTime()
	for b.Loop() {
		r := httptest.NewRequest("GET", path, nil)
		r.Host = testHost
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != 200 {
			b.Fatalf("GET %s = %d", path, w.Code)
		}
		size = w.Body.Len()
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
	b.ReportMetric(float64(size), "bytes/page")
}

// cpuTime is the user and system CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
