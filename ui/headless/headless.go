package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/elicit-dev/elicit/ui"
	"github.com/elicit-dev/elicit/ui/internal/msgbreak"
	"github.com/elicit-dev/elicit/ui/internal/say"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/internal/session"
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
	Stdout         io.Writer // the agent's reply
	Stderr         io.Writer // one line per decision taken for the user, and errors
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
	err error
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
	h := &headless{ctx: ctx, o: o, core: session.New(nil, session.Policy{
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
		if err == nil {
			err = h.open(ctx, c)
		}
		started <- opened{c, err}
	}()
	var events <-chan acpconn.Event
	for {
		select {
		case c := <-attached:
			h.c, events = c, c.Events()
			h.core.SetConn(c)
			h.core.SetMemory(o.Memory.For(c))
			defer c.Close()
		case r := <-started:
			started = nil
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
			h.replaying = false
			h.core.Prompted(o.Prompt)
			h.c.StartPrompt(o.Prompt)
		case ev, ok := <-events:
			if !ok {
				return ExitFailed
			}
			if ex, isExit := ev.(acpconn.AgentExited); isExit && started != nil {
				h.exitTail, events = ex.Stderr, nil // the start's error says the rest
				continue
			}
			if code, done := h.apply(ev); done {
				return code
			}
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

// open opens the session (signing in with an env_var method whose
// variables are set, once), then sets --mode and --model.
func (h *headless) open(ctx context.Context, c *acpconn.Conn) error {
	err := h.openSession(ctx, c)
	if acpconn.IsAuthRequired(err) {
		env := h.o.Agent.Env
		if env == nil {
			env = os.Environ()
		}
		for _, m := range c.AuthMethods() {
			if m.Kind != acpconn.AuthEnvVar || len(m.Missing(env)) > 0 {
				continue
			}
			fmt.Fprintf(h.o.Stderr, "elicit: signing in with %s (its variables are set)\n", m.Name)
			if aerr := c.Authenticate(ctx, m.ID); aerr == nil {
				err = h.openSession(ctx, c)
				break
			}
		}
	}
	if err != nil {
		return err
	}
	for _, f := range []struct{ kind, want string }{{acpconn.KindMode, h.o.Mode}, {acpconn.KindModel, h.o.Model}} {
		if f.want == "" {
			continue
		}
		sel, ok := h.st.Selector(f.kind)
		if !ok {
			return fmt.Errorf("--%s %s: the agent offers no %s", f.kind, sanitize.Line(f.want), f.kind)
		}
		ch, ok := sel.Find(f.want)
		if !ok {
			return fmt.Errorf("--%s %s: the agent offers %s", f.kind, sanitize.Line(f.want), sanitize.Line(sel.IDs()))
		}
		if ch.ID == sel.Current {
			continue
		}
		if h.st, err = c.Select(ctx, h.st, sel, ch.ID); err != nil {
			return err
		}
	}
	return nil
}

// openSession creates the session, or takes up a past one without
// printing its history.
func (h *headless) openSession(ctx context.Context, c *acpconn.Conn) (err error) {
	if !h.o.Resume {
		h.st, err = c.NewSession(ctx)
		return err
	}
	id := h.o.ResumeID
	if id == "" {
		list, err := c.ListSessions(ctx)
		if err != nil {
			return fmt.Errorf("--resume: listing the sessions: %w", err)
		}
		if len(list) == 0 {
			return errors.New("--resume: the agent has no past session in this directory")
		}
		id = list[0].ID
	}
	h.st, _, err = c.OpenSession(ctx, id, false)
	if errors.Is(err, acpconn.ErrNotSupported) {
		return errors.New("--resume: the agent cannot resume sessions")
	}
	return err
}

// signInFailed says why the agent wants sign-in and how to do it.
func (h *headless) signInFailed(err error) int {
	var methods []acpconn.AuthMethod
	if h.c != nil {
		methods = h.c.AuthMethods()
	}
	if len(methods) == 0 {
		methods = acpconn.AuthMethodsIn(err, h.o.Agent.Argv)
	}
	if len(methods) == 0 {
		if tm, ok := acpconn.TextMethod(acpconn.AgentReason(err), h.o.Agent.Argv); ok {
			tm.Name = "sign in"
			methods = []acpconn.AuthMethod{tm}
		}
	}
	fmt.Fprintln(h.o.Stderr, "elicit: "+acpconn.SignInHelp(err, methods))
	return ExitFailed
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
		}
	case acpconn.ToolCall, acpconn.PermissionRequest: // a tool call between two runs of text
		h.breaks.Interrupt()
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
