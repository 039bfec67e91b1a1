package acpconn

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
)

func init() {
	// stray-escapes prints lines that are not JSON-RPC, with escapes a
	// terminal obeys, and a JSON line holding a raw C1 CSI.
	scripts["stray-escapes"] = func(a *scripted) {
		p := a.prompt()
		a.raw("login at \x1b]0;PWNED-TITLE\x07\x1b]52;c;Y3VybCBldmls\x07https://evil.example")
		a.raw(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"c1 ` + "\u009b" + `2J"}}}}`)
		a.endTurn(p, "end_turn")
	}
}

// Issue 27, case 12: the --log trace quotes the agent's lines that are
// not JSON-RPC (and JSON lines holding what a terminal obeys), so tail -f
// of the trace sets no title and writes no clipboard.
func TestTraceQuotesStrayLines(t *testing.T) {
	var log testkit.Buffer
	c := start(t, "stray-escapes", Config{Log: &log})
	c.StartPrompt("go")
	until[TurnEnded](t, c)
	c.Close()
	trace := log.String()
	if strings.ContainsAny(trace, "\x1b\a") || strings.Contains(trace, "\u009b") {
		t.Fatalf("the trace holds raw escapes:\n%q", trace)
	}
	for _, want := range []string{`(not JSON-RPC) "login at \x1b]0;PWNED-TITLE\a\x1b]52;c;Y3VybCBldmls\ahttps://evil.example"`, `(escaped) "{\"jsonrpc`, `\u009b2J`, `"method":"session/prompt"`} {
		if !strings.Contains(trace, want) {
			t.Errorf("the trace lacks %s:\n%s", want, trace)
		}
	}
}
