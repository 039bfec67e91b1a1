package demoagent

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
)

// BenchmarkFlood measures the agent side of "flood 10000" against a client that only reads
// lines, so the figure is the agent's own cost per turn.
func BenchmarkFlood(b *testing.B) {
	toAgentR, toAgentW := io.Pipe()
	fromAgentR, fromAgentW := io.Pipe()
	go func() { _ = Run(context.Background(), toAgentR, fromAgentW); _ = fromAgentW.Close() }()
	defer toAgentW.Close()
	lines := bufio.NewScanner(fromAgentR)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	call := func(id int, method, params string) string {
		fmt.Fprintf(toAgentW, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, params)
		prefix := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,`, id)
		for lines.Scan() {
			if strings.HasPrefix(lines.Text(), prefix) {
				return lines.Text()
			}
		}
		b.Fatalf("no response to %s", method)
		return ""
	}
	call(1, "initialize", `{"protocolVersion":1}`)
	resp := call(2, "session/new", `{"cwd":"/tmp","mcpServers":[]}`)
	sid := resp[strings.Index(resp, `"sessionId":"`)+len(`"sessionId":"`):]
	sid = sid[:strings.Index(sid, `"`)]
	prompt := fmt.Sprintf(`{"sessionId":%q,"prompt":[{"type":"text","text":"flood 10000"}]}`, sid)
	b.ResetTimer()
	for i := range b.N {
		if r := call(10+i, "session/prompt", prompt); !strings.Contains(r, "end_turn") {
			b.Fatalf("turn ended with %s", r)
		}
	}
	b.ReportMetric(float64(b.N*10000)/b.Elapsed().Seconds(), "chunks/s")
}
