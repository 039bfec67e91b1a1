package acpconn

import (
	"bytes"
	"sync/atomic"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// AgentOutput is a line the agent printed on stdout that is not JSON-RPC
// (gemini prints its sign-in URL there). It is shown, never dropped; the
// --log trace keeps it too.
type AgentOutput struct{ Line string }

func (AgentOutput) event() {}

// maxOutputLines is how many stray stdout lines are shown; the rest are
// only in the --log trace, and one notice says so.
const maxOutputLines = 200

// strayLines counts the stray lines shown, per connection.
type strayLines struct{ n atomic.Int64 }

// stray reports a line from the agent's stdout that cannot be JSON-RPC:
// blank lines are ignored, and a line that starts like a JSON object is
// left to the SDK (it reports what it cannot decode).
func (c *Conn) stray(line []byte) {
	t := bytes.TrimSpace(line)
	if len(t) == 0 || t[0] == '{' {
		return
	}
	switch n := c.strays.n.Add(1); {
	case n <= maxOutputLines:
		c.emit(AgentOutput{Line: sanitize.Line(string(t))})
	case n == maxOutputLines+1:
		c.emit(Notice{Text: "the agent keeps printing lines that are not ACP messages; the rest are only in the --log trace"})
	}
}
