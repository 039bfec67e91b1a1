package line

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/ui"
	"github.com/elicit-dev/elicit/ui/internal/msgbreak"
	"github.com/elicit-dev/elicit/ui/internal/opener"
	"github.com/elicit-dev/elicit/ui/internal/say"
	"github.com/elicit-dev/elicit/ui/internal/share"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/session"
	"github.com/elicit-dev/elicit/urlconsent"
)

// Options configure the accessible session: line-based prompts, no
// full-screen redraw, for screen readers and braille displays.
type Options struct {
	Agent     acpconn.Config
	Opener    urlconsent.Opener // nil = the system browser
	Answers   map[string]json.RawMessage
	Memory    ui.Memory // hooks, history, audit log
	AutoRetry bool
	In        io.Reader
	Out       io.Writer
	// Signals, when set, delivers SIGINT (cancel the turn, or quit at the
	// prompt) and SIGTERM/SIGHUP (quit).
	Signals <-chan os.Signal
	// Mode and Model (--mode, --model) are set once the session opens: a
	// choice's id, or its name.
	Mode, Model string
	// Resume (--resume, -c) takes up a past session: ResumeID, or the most
	// recent in the directory when it is "". Its history is printed when
	// the agent replays it; with nothing to resume a new session starts,
	// and the session says why.
	Resume   bool
	ResumeID string
	// APIKeyEnv (--api-key-env, or the agent's api_key_env) names the
	// environment variable holding an API key, used without asking when
	// the agent wants sign-in and offers an api-key method; env_var
	// methods whose variables are set are used too.
	APIKeyEnv string
	// Share puts the session's questions before other clients too (the
	// user's inbox): their answer ends the question asked here (inbox.go).
	Share *share.Share
}

// Run runs a session one line at a time: a "> " prompt, the reply as
// plain text, and every question (permission, form, URL consent) asked as
// numbered or line-based prompts. Lines typed before a question appeared
// never answer it. It returns the exit status.
func Run(o Options) int {
	if o.Opener == nil {
		o.Opener = urlconsent.BrowserOpener{}
	}
	out := o.Out
	fmt.Fprintln(out, "Starting the agent…")
	// Ctrl+C while the agent starts cancels the start (which ends it);
	// start-up is bounded by Agent.StartTimeout.
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	// A person answers: every write no permission covered is asked.
	o.Agent.Writes = acpconn.WritesAsked
	l := &lineSession{o: o, in: readLines(o.In), tools: map[string]string{}}
	l.out = &msgbreak.Writer{W: o.Out}
	l.o.Out = l.out // every line goes through it
	out = l.out
	defer l.catchSuspend()()
	l.core = session.New(nil, session.Policy{Person: true, Answers: o.Answers, AutoRetry: o.AutoRetry}, nil)
	if o.Share != nil {
		l.core.SetObserver(o.Share)
		l.shared = &shared{answers: map[*question.Question]share.Answer{}}
		shareCtx, stopShare := context.WithCancel(context.Background())
		defer stopShare()
		go l.shared.follow(shareCtx, o.Share)
	}
	attached := make(chan *acpconn.Conn, 1)
	o.Agent.OnStart = func(c *acpconn.Conn) { attached <- c }
	var c *acpconn.Conn
	err := l.wait(attached, func() (err error) { c, err = acpconn.Start(ctx, o.Agent); return err })
	if err != nil {
		fmt.Fprintln(out, "Could not start the agent:", sanitize.Text(err.Error()))
		for _, l := range acpconn.StderrOf(err) {
			fmt.Fprintln(out, "  | "+l)
		}
		return 1
	}
	defer c.Close()
	l.core.SetMemory(o.Memory.For(c))
	defer l.core.Close()
	t := opener.Target{Resume: o.Resume, ID: o.ResumeID, Replay: true, Mode: o.Mode, Model: o.Model,
		Auto: l.auto()}
	res := l.open(ctx, t)
	if res.AuthRequired() {
		var ok bool
		if res, ok = l.authenticate(ctx, res.Err, t); !ok {
			fmt.Fprintln(out, "Could not start a session: the agent requires sign-in.")
			return 1
		}
	}
	if res.Err != nil {
		fmt.Fprintln(out, "Could not start a session:", sanitize.Text(res.Err.Error()))
		return 1
	}
	l.opened(res)
	if l.exited != nil {
		code, _ := l.apply(*l.exited)
		return code
	}
	fmt.Fprintf(out, "Connected to %s. Type a prompt and press Enter. Ctrl+C cancels a turn; Ctrl+D (or Ctrl+C at the prompt) quits; Ctrl+Z suspends (fg resumes).\n", sanitize.Line(c.AgentName()))
	cancel() // from here Ctrl+C is the loop's
	return l.loop()
}

// wait runs f (a start-up request) while the agent's events are handled,
// so a question it asks meanwhile (a request-scoped elicitation) is asked
// at once. attached, when set, delivers the connection as soon as it
// exists.
func (l *lineSession) wait(attached <-chan *acpconn.Conn, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	var events <-chan acpconn.Event
	if l.c != nil {
		events = l.c.Events()
	}
	for {
		select {
		case c := <-attached:
			attached, l.c, events = nil, c, c.Events()
			l.core.SetConn(c)
		case err := <-done:
			// What the agent sent before its answer (a loaded session's
			// replay) is handled before what comes after: select picks
			// among ready cases at random.
			for {
				select {
				case ev := <-events:
					if _, gone := ev.(question.Gone); gone {
						continue // AgentExited follows
					}
					if ex, exited := ev.(acpconn.AgentExited); exited {
						if err == nil {
							l.exited = &ex // it answered, then exited: the session ends
						}
						return err
					}
					l.apply(ev)
				default:
					return err
				}
			}
		case ev := <-events:
			if _, gone := ev.(question.Gone); gone {
				continue // AgentExited follows
			}
			if _, exited := ev.(acpconn.AgentExited); exited {
				events = nil // the request's error says why
				continue
			}
			l.apply(ev)
		}
	}
}

type lineSession struct {
	o          Options
	c          *acpconn.Conn
	core       *session.Core
	in         *lineInput
	running    bool
	later      session.Changes // a retry that waits for the running turn's end (Send, Retry)
	cancelling bool            // Ctrl+C asked the agent to cancel the running turn
	tools      map[string]string
	out        *msgbreak.Writer // Options.Out, knowing how what it wrote ends
	breaks     msgbreak.Rule    // where a new agent message (a paragraph) starts
	susp       *suspender       // Ctrl+Z
	msgID      string           // the replayed message being written (lines_open.go)
	outputs    outputs          // each command's output, capped
	refused    map[string]bool  // tool calls a write of which was refused
	// replaying: a session is being opened, and a loaded one's history
	// arrives; replayed: some of it was printed; lastRole: whose message
	// was printed last.
	replaying, replayed bool
	lastRole            acpconn.Role
	exited              *acpconn.AgentExited // seen by wait after its request succeeded
	shared              *shared              // Options.Share's answers (inbox.go)
	// lastPrompt was sent last; resent: it went again after sign-in (a
	// second refusal is reported, not signed in again).
	lastPrompt string
	resent     bool
}

func (l *lineSession) loop() int {
	out := l.o.Out
	fmt.Fprint(out, "> ")
	for {
		var lines <-chan line
		if !l.running {
			if h := l.in.held; h != nil {
				l.in.held = nil
				l.prompt(h.s)
				continue
			}
			lines = l.in.ch
		}
		select {
		case s := <-l.o.Signals:
			if s != os.Interrupt {
				fmt.Fprintln(out, "\nQuitting:", s)
				return 1
			}
			if !l.running {
				l.out.EndLine() // the shell's prompt on a line of its own
				return 0
			}
			fmt.Fprintln(out, "\nCancelling the turn…")
			l.cancelling = true
			if err := l.c.CancelTurn(); err != nil {
				fmt.Fprintln(out, sanitize.Text(err.Error()))
			}
		case text, ok := <-lines:
			if !ok {
				l.out.EndLine() // Ctrl+D: the shell's prompt on a line of its own
				return 0
			}
			l.prompt(text.s)
		case ev := <-l.c.Events():
			if code, done := l.apply(ev); done {
				return code
			}
		}
	}
}

// prompt sends a line typed at the prompt; an empty one asks again.
func (l *lineSession) prompt(text string) {
	if strings.TrimSpace(text) == "" {
		fmt.Fprint(l.o.Out, "> ")
		return
	}
	if l.permissionsCommand(text) {
		return
	}
	l.resent = false
	l.send(text)
}

func (l *lineSession) send(text string) {
	l.lastPrompt = text
	l.running = true
	l.tools = map[string]string{}
	l.breaks.Reset()
	l.core.Prompted(text)
	l.c.StartPrompt(text)
}

func (l *lineSession) apply(ev acpconn.Event) (int, bool) {
	if l.out == nil {
		l.out = &msgbreak.Writer{W: l.o.Out}
		l.o.Out = l.out // every line goes through it
	}
	out := l.o.Out
	ch := l.core.Settle(context.Background(), l.core.Apply(ev))
	if l.o.Share != nil {
		l.o.Share.Event(ev) // a turn's end drops what other clients see
	}
	switch ev := ev.(type) {
	case acpconn.MessageChunk:
		if l.replaying {
			l.replayChunk(ev)
		} else if ev.Role == acpconn.RoleAgent && ev.Text != "" {
			if l.breaks.Chunk(ev.MessageID) {
				l.out.Paragraph() // a new message, a new paragraph
			}
			io.WriteString(out, ev.Text)
		} else if ev.Role == acpconn.RoleUser {
			l.breaks.Apart() // the agent's reply after it is another message
		}
	case acpconn.AgentOutput:
		fmt.Fprintln(out, "\nNote: agent output:", ev.Line)
	case question.Asked:
		if ev.Q.Kind == question.Permission {
			l.breaks.Interrupt() // it names a tool call: text after it is a new message
		}
	case acpconn.ToolCall:
		l.breaks.Tool(ev.ID) // a new call is a boundary; an update to one seen before is not
		if ev.Status != "" && l.tools[ev.ID] != ev.Status {
			l.tools[ev.ID] = ev.Status
			status := strings.ReplaceAll(sanitize.ID(ev.Status), "_", " ")
			if l.refused[ev.ID] { // not done as approved, whatever the agent says
				status = "write refused (the agent says " + status + ")"
			}
			fmt.Fprintf(out, "\n[tool %s: %s]\n", l.core.ToolTitle(ev.ID), status)
		}
	case acpconn.Plan:
		fmt.Fprintln(out, "\nPlan:")
		for _, e := range ev.Entries {
			fmt.Fprintf(out, "  - %s (%s)\n", e.Content, strings.ReplaceAll(sanitize.ID(e.Status), "_", " "))
		}
	case acpconn.Notice:
		fmt.Fprintln(out, "\nNote:", ev.Text)
	case acpconn.FileAccess:
		fmt.Fprintln(out, "\nNote: "+say.FileLine(ev))
		if ev.Mismatch {
			l.mismatch(ev)
		}
		if ev.ToolCallID != "" && ev.Op == "refused" && len(l.refused) < 256 {
			if l.refused == nil {
				l.refused = map[string]bool{}
			}
			l.refused[ev.ToolCallID] = true
		}
	case acpconn.TerminalOutput:
		l.outputs.write(out, ev) // the head, then the tail: never all of it
		if ev.Exited {
			l.out.EndLine()
			fmt.Fprintf(out, "[%s]\n", ev.Exit)
		}
	case acpconn.UnknownUpdate:
		fmt.Fprintf(out, "\nNote: the agent sent an update of unknown kind %q\n", sanitize.ID(ev.Kind))
	case acpconn.TurnEnded:
		l.outputs.flushAll(out)
		l.running = false
		cancelling := l.cancelling
		l.cancelling = false
		switch {
		case acpconn.IsAuthRequired(ev.Err) && !l.resent:
			l.signInAtPrompt(ev.Err)
		case ev.URLNeeded != nil: // the core asked the URLs and said why (its notes), not the -32042's raw JSON
		case ev.Err != nil:
			fmt.Fprintln(out, "\nThe turn failed:", sanitize.Text(ev.Err.Error()))
		case cancelling && ev.StopReason == "end_turn": // the agent had answered as Ctrl+C came
			fmt.Fprintln(out, "\nThe turn ended before the cancel reached the agent.")
		case ev.StopReason != "end_turn":
			fmt.Fprintln(out, "\nThe turn ended:", say.StopReason(ev.StopReason))
		default:
			fmt.Fprintln(out)
		}
	case acpconn.AgentExited:
		l.changes(ch)
		l.dropLater("the agent exited")
		if ev.Exit.Lost {
			// The line session does not reconnect (the full screen does):
			// it says how to take the session up again.
			fmt.Fprintln(out, "\nThe agent's connection ended:", say.ExitWhy(ev)) // "the connection to URL was lost: …"
			if l.c != nil && l.c.SessionID() != "" {
				id := l.c.SessionID()
				fmt.Fprintf(out, "To take the session up again, run elicit again with --resume %s\n", sanitize.ID(id))
			}
			return 1, true
		}
		fmt.Fprintln(out, "\nThe agent exited:", say.ExitWhy(ev))
		for _, s := range ev.Stderr {
			fmt.Fprintln(out, "  | "+s)
		}
		return 1, true
	}
	te, ended := ev.(acpconn.TurnEnded)
	switch {
	case ended && !l.running && te.Failed(): // the agent may be gone (its exit comes next)
		l.dropLater("the turn failed")
	case ended && !l.running: // a retry that waited for this end goes now
		ch.Send, ch.Retry = cmp.Or(ch.Send, l.later.Send), cmp.Or(ch.Retry, l.later.Retry)
		l.later = session.Changes{}
	}
	l.changes(ch)
	if ended && !l.running {
		fmt.Fprint(out, "> ")
	}
	return 0, false
}
