package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/mcpconn"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/session"
	"github.com/elicit-dev/elicit/ui"
	"github.com/elicit-dev/elicit/urlconsent"
)

// MCPOptions configure `elicit mcp tools` and `elicit mcp call`.
type MCPOptions struct {
	Server mcpconn.Config
	Tool   string          // call: the tool's name
	Args   json.RawMessage // call: its arguments (a JSON object; nil = {})
	// Person is true when a terminal can ask (and none of --answers,
	// --accept-defaults, --decline was given): then Ask asks each question.
	Person bool
	Ask    Asker
	// Without a person: --answers, then --accept-defaults answer a form;
	// Decline (--decline) declines every form and URL; otherwise they are
	// cancelled (nobody chose), with the reason on stderr. A URL goes to
	// the browser only with ApproveURLs, through Opener, when its analysis
	// is not high-risk (session.Unattended is the rule).
	Answers        map[string]json.RawMessage
	AcceptDefaults bool
	Decline        bool
	ApproveURLs    bool
	Opener         urlconsent.Opener // nil = the system browser
	// Quiet (--quiet) says nothing of a form accepted: no line for each,
	// which a server asking hundreds of forms in one call makes too many
	// to read. What was declined, cancelled or went wrong is still said.
	Quiet bool
	// AutoRetry retries a call refused with -32042 once its URL flows are
	// complete, without asking (once).
	AutoRetry bool
	// FlowTimeout is how long the run waits for the server's
	// notifications/elicitation/complete after a -32042 URL was opened;
	// then it goes on as if the flow were done (0 = DefaultFlowTimeout).
	FlowTimeout time.Duration
	Timeout     time.Duration // the whole run; 0 = DefaultTimeout
	Memory      ui.Memory     // hooks, history, audit log
	Stdout      io.Writer     // the tool's text
	Stderr      io.Writer     // decisions, notices, errors
}

// Asker asks a person one question on the terminal; it returns when the
// question is answered or ctx ends (the server withdrew it: then the
// outcome is not used). confirm asks a yes-or-no question.
type Asker interface {
	Ask(ctx context.Context, q *question.Question, server string) question.Outcome
	Confirm(ctx context.Context, question string) bool
}

// DefaultFlowTimeout bounds the wait for a -32042 flow's completion.
const DefaultFlowTimeout = 2 * time.Minute

func (o *MCPOptions) defaults() {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.FlowTimeout <= 0 {
		o.FlowTimeout = DefaultFlowTimeout
	}
	if o.Opener == nil {
		o.Opener = urlconsent.BrowserOpener{}
	}
}

// connectMCP connects, saying on stderr why it could not.
func connectMCP(ctx context.Context, o MCPOptions) (*mcpconn.Conn, int) {
	c, err := mcpconn.Connect(ctx, o.Server)
	if err == nil {
		return c, ExitOK
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		fmt.Fprintf(o.Stderr, "elicit: timed out after %s (--timeout)\n", o.Timeout)
		return nil, ExitTimeout
	}
	fmt.Fprintln(o.Stderr, "elicit: could not connect to the server:", sanitize.Text(err.Error()))
	var se *mcpconn.StartError
	if errors.As(err, &se) {
		for _, l := range se.Stderr {
			fmt.Fprintln(o.Stderr, "  | "+l)
		}
	}
	return nil, ExitFailed
}

// RunMCPTools prints the server's tools, one a line: the name, a tab, and
// the title ("" when it has none). It returns the exit status.
func RunMCPTools(o MCPOptions) int {
	o.defaults()
	ctx, cancel := context.WithTimeout(context.Background(), o.Timeout)
	defer cancel()
	c, code := connectMCP(ctx, o)
	if c == nil {
		return code
	}
	defer c.Close()
	tools, err := c.Tools(ctx)
	for _, t := range tools {
		fmt.Fprintf(o.Stdout, "%s\t%s\n", sanitize.Line(t.Name), t.Title)
	}
	if err != nil {
		fmt.Fprintln(o.Stderr, "elicit: listing the tools:", mcpconn.ErrorText(err))
		return ExitFailed
	}
	return ExitOK
}

// memoryFor binds the memory to an MCP server: its name for hook globs and
// history keys (unless the command line named it), its directory.
func memoryFor(m ui.Memory, c *mcpconn.Conn, dir string) session.Memory {
	name := m.Agent
	if name == "" {
		name = c.Info().Name
	}
	return session.Memory{Hooks: m.Hooks, History: m.History, Audit: m.Audit, Agent: name, Cwd: dir}
}
