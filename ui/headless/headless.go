package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/session"
	"github.com/elicit-dev/elicit/ui"
	"github.com/elicit-dev/elicit/ui/internal/msgbreak"
	"github.com/elicit-dev/elicit/ui/internal/opener"
	"github.com/elicit-dev/elicit/ui/internal/say"
)

// Options configure a non-interactive run (-p): one prompt, the
// reply as plain text, no terminal needed.
type Options struct {
	Agent          acpconn.Config
	Prompt         string
	Answers        map[string]json.RawMessage // --answers: property key -> value
	AcceptDefaults bool                       // answer forms with their defaults when --answers is absent
	Approve        bool                       // allow tool permissions (default: reject)
	Timeout        time.Duration              // the whole run; 0 = DefaultTimeout
	Memory         ui.Memory                  // hooks, history, audit log
	Mode, Model    string                     // --mode, --model: set before the prompt (an id or a name)
	Resume         bool                       // --resume: take up ResumeID, or the most recent session
	ResumeID       string
	// APIKeyEnv (--api-key-env, or the agent's api_key_env) names the
	// environment variable that holds an API key: an agent that wants
	// sign-in and offers an api-key method gets it in authenticate's
	// _meta. Env_var methods whose variables are set are used anyway.
	APIKeyEnv string
	Stdout    io.Writer // the agent's reply
	Stderr    io.Writer // one line per decision taken for the user, and errors
	// Remote (elicit serve -p) puts the forms and URLs before the clients
	// of an AHP host instead of a rule: the run waits for their answers.
	// Permissions stay with the rule (--approve).
	Remote *Remote
}

// Remote is what a run shares its questions with: the core's observer,
// every agent event (turn ends), and the answers other clients give.
type Remote struct {
	Observer session.Observer
	Event    func(acpconn.Event)
	Answers  <-chan session.Pending
}

// DefaultTimeout bounds a -p run when no --timeout is given.
const DefaultTimeout = 10 * time.Minute

// Exit statuses of Run.
const (
	ExitOK      = 0   // the turn ended with end_turn
	ExitFailed  = 1   // the turn, the agent or the session failed
	ExitTimeout = 124 // --timeout ran out (as timeout(1))
)

// opened is the outcome of starting the agent and opening its session.
type opened struct {
	c   *acpconn.Conn
	res opener.Result
	err error // the start's
}

// Run sends one prompt and writes the reply. It returns the exit
// status (see ExitOK and the others), with a one-line reason on Stderr.
// Events are read from the moment the connection exists, so a question the
// agent asks while it starts is answered by the same rules as the others.
func Run(o Options) int {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), o.Timeout)
	defer cancel()
	if !o.Approve { // tool calls are rejected, and so are file writes
		o.Agent.Writes, o.Agent.WritesRefusedWhy = acpconn.WritesRefused, "run with --approve to allow them"
	}
	if !o.Approve { // and commands (each one run is reported on Stderr either way)
		o.Agent.Terminals, o.Agent.TerminalsRefusedWhy = acpconn.TerminalsRefused, "run with --approve to allow them"
	}
	h := &headless{ctx: ctx, o: o, signedIn: make(chan signInAtPrompt, 1), core: session.New(nil, session.Policy{
		Answers: o.Answers, AcceptDefaults: o.AcceptDefaults, Approve: o.Approve,
		Person: o.Remote != nil, PermissionsByRule: o.Remote != nil,
	}, nil)}
	defer h.core.Close()
	var remote <-chan session.Pending
	if o.Remote != nil {
		h.core.SetObserver(o.Remote.Observer)
		remote = o.Remote.Answers
	}
	attached := make(chan *acpconn.Conn, 1)
	o.Agent.OnStart = func(c *acpconn.Conn) { attached <- c }
	started := make(chan opened, 1)
	h.replaying = o.Resume // a load replays the history: not part of this reply
	go func() {
		c, err := acpconn.Start(ctx, o.Agent)
		var res opener.Result
		if err == nil {
			res = opener.Open(ctx, c, h.target())
		}
		started <- opened{c, res, err}
	}()
	var events <-chan acpconn.Event
	for {
		select {
		case c := <-attached:
			events = h.attach(c)
			defer c.Close()
		case r := <-started:
			started = nil
			select { // both may be ready: the connection comes first
			case c := <-attached:
				events = h.attach(c)
				defer c.Close()
			default:
			}
			if r.err == nil {
				r.err = h.opened(r.res)
			}
			if r.err != nil {
				h.endLine()
				if acpconn.IsAuthRequired(r.err) {
					return h.signInFailed(r.err)
				}
				code := headlessFail(o, ctx, r.err)
				for _, l := range h.exitTail {
					fmt.Fprintln(o.Stderr, "  | "+l)
				}
				return code
			}
			// A replay the agent sent before its answer is not printed,
			// however the select below would have ordered it.
			if code, done := h.drain(events); done {
				return code
			}
			h.replaying = false
			h.core.Prompted(o.Prompt)
			h.c.StartPrompt(o.Prompt)
		case ev, ok := <-events:
			if !ok {
				return ExitFailed
			}
			if _, gone := ev.(question.Gone); gone && started != nil {
				continue // AgentExited follows: the start's error says the rest
			}
			if ex, isExit := ev.(acpconn.AgentExited); isExit && started != nil {
				h.exitTail, events = ex.Stderr, nil // the start's error says the rest
				continue
			}
			if code, done := h.apply(ev); done {
				return code
			}
		case s := <-h.signedIn:
			h.saySignIn(s.tried)
			if n := len(s.tried); n == 0 || s.tried[n-1].Err != nil {
				return h.signInFailed(s.why)
			}
			h.c.StartPrompt(o.Prompt)
		case p := <-remote:
			for _, n := range h.core.Settle(ctx, h.core.Answer(p.Q, p.Out)).Notes {
				fmt.Fprintln(o.Stderr, "elicit: "+n.Text)
			}
		case <-ctx.Done():
			h.endLine()
			return headlessFail(o, ctx, ctx.Err())
		}
	}
}

func headlessFail(o Options, ctx context.Context, err error) int {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		fmt.Fprintf(o.Stderr, "elicit: timed out after %s (--timeout)\n", o.Timeout)
		return ExitTimeout
	}
	fmt.Fprintln(o.Stderr, "elicit:", sanitize.Text(err.Error()))
	for _, l := range acpconn.StderrOf(err) {
		fmt.Fprintln(o.Stderr, "  | "+l)
	}
	return ExitFailed
}

type headless struct {
	ctx       context.Context
	o         Options
	c         *acpconn.Conn
	st        acpconn.SessionState
	core      *session.Core
	out       *msgbreak.Writer // the reply (Options.Stdout)
	breaks    msgbreak.Rule    // where a new message (a paragraph) starts
	replaying bool             // a loaded session's history is arriving: not printed
	exitTail  []string
	// signInTried: sign-in without asking was tried (at the start, or
	// when the prompt was refused); signedIn brings a later attempt's
	// outcome to the loop.
	signInTried bool
	signedIn    chan signInAtPrompt
}

func (h *headless) endLine() { h.stdout().EndLine() }

// stdout is where the reply goes (Options.Stdout).
func (h *headless) stdout() *msgbreak.Writer {
	if h.out == nil {
		h.out = &msgbreak.Writer{W: h.o.Stdout}
	}
	return h.out
}

// apply handles one event; done reports that the run is over.
func (h *headless) apply(ev acpconn.Event) (code int, done bool) {
	o := h.o
	ch := h.core.Settle(h.ctx, h.core.Apply(ev))
	if o.Remote != nil && o.Remote.Event != nil {
		o.Remote.Event(ev)
	}
	for _, n := range ch.Notes {
		fmt.Fprintln(o.Stderr, "elicit: "+n.Text)
	}
	switch ev := ev.(type) {
	case acpconn.MessageChunk:
		text := ev.Faithful // the stream's writer decides what a terminal may see
		if text == "" {
			text = ev.Text
		}
		if ev.Role == acpconn.RoleAgent && text != "" && !h.replaying {
			if h.breaks.Chunk(ev.MessageID) {
				h.stdout().Paragraph() // separate messages, separate paragraphs
			}
			io.WriteString(h.stdout(), text)
		} else if ev.Role == acpconn.RoleUser && !h.replaying {
			h.breaks.Apart() // not printed, but the agent's reply after it is another message
		}
	case acpconn.ToolCall: // a tool call between two runs of text, unless one seen before
		h.breaks.Tool(ev.ID)
	case question.Asked:
		if ev.Q.Kind == question.Permission { // it names a tool call
			h.breaks.Interrupt()
		}
	case acpconn.AgentOutput:
		fmt.Fprintln(o.Stderr, "elicit: agent output:", ev.Line)
	case acpconn.Notice:
		fmt.Fprintln(o.Stderr, "elicit:", ev.Text)
	case acpconn.FileAccess:
		fmt.Fprintln(o.Stderr, "elicit: "+say.FileLine(ev))
	case acpconn.UnknownUpdate:
		fmt.Fprintf(o.Stderr, "elicit: the agent sent an update of unknown kind %q\n", sanitize.ID(ev.Kind))
	case acpconn.TurnEnded:
		h.endLine()
		switch {
		case ev.URLNeeded != nil:
			fmt.Fprintln(o.Stderr, "elicit: the agent needs a URL flow completed in a browser; run elicit interactively")
			return ExitFailed, true
		case acpconn.IsAuthRequired(ev.Err) && h.trySignIn(ev.Err):
			return 0, false // the prompt goes again once signed in
		case acpconn.IsAuthRequired(ev.Err):
			return h.signInFailed(ev.Err), true
		case ev.Err != nil:
			fmt.Fprintln(o.Stderr, "elicit:", sanitize.Text(ev.Err.Error()))
			return ExitFailed, true
		case ev.StopReason != "end_turn":
			fmt.Fprintf(o.Stderr, "elicit: the turn ended: %s\n", say.StopReason(ev.StopReason))
			return ExitFailed, true
		}
		return ExitOK, true
	case acpconn.AgentExited:
		h.endLine()
		fmt.Fprintf(o.Stderr, "elicit: the agent exited mid-turn (%s)\n", say.ExitWhy(ev))
		for _, l := range ev.Stderr {
			fmt.Fprintln(o.Stderr, "  | "+l)
		}
		return ExitFailed, true
	}
	return 0, false
}
