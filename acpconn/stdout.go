package acpconn

import (
	"bytes"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// AgentOutput is a line the agent printed on stdout that is not JSON-RPC
// (gemini prints its sign-in URL there). It is shown, never dropped; the
// --log trace keeps it too.
type AgentOutput struct{ Line string }

// maxOutputLines is how many stray stdout lines are shown; the rest are
// only in the --log trace, and one notice says so.
const maxOutputLines = 200

// maxOutputLine is how much of one stray line is shown: with
// maxOutputLines, what an agent's stray output can make the UI hold
// (200 lines of up to 10 MiB each were 2 GB).
const maxOutputLine = 2 << 10

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
		shown := sanitize.Line(string(t[:min(len(t), maxOutputLine)]))
		if len(t) > maxOutputLine {
			shown = fmt.Sprintf("%s… [a line of %d bytes, cut]", strings.ToValidUTF8(shown, ""), len(t))
		}
		c.emit(AgentOutput{Line: shown})
	case n == maxOutputLines+1:
		c.emit(Notice{Text: "the agent keeps printing lines that are not ACP messages; the rest are only in the --log trace"})
	}
}
