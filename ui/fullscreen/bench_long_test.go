package fullscreen

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/theme"
)

// BenchmarkLongSession streams turns of 20,000 60-byte lines (1.2 MB of
// agent text each, as bench/lineagent's "lines 20000") into one
// transcript on a 200x60 screen, a view every 200 chunks as the flush
// draws them, and reports the heap in use after the last turn (after a
// GC) and the text the log holds in memory: what a long session costs.
// One op is one turn; -benchtime 40x is forty turns in one session.
func BenchmarkLongSession(b *testing.B) {
	md, th := newMarkdown(true, false), theme.New(true, false)
	const width, height = 200, 60
	lines := lineReply(20000)
	tr := benchTranscript(b, md, th)
	turn := 0
	for b.Loop() {
		turn++
		tr.newTurn()
		tr.user(fmt.Sprintf("lines 20000 (turn %d)", turn))
		for i, l := range lines {
			tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: l})
			if i%200 == 0 {
				tr.viewHold(width, height, 0, false, true)
			}
		}
		tr.endStream()
		tr.view(width, height, 0)
	}
	b.StopTimer()
	tr.log.sp.wait()
	tr.log.reclaim()
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heapMiB")
	b.ReportMetric(float64(tr.log.held)/(1<<20), "textMiB")
	b.ReportMetric(float64(turn), "turns")
	runtime.KeepAlive(tr)
}
