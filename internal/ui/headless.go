package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/internal/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/internal/session"
)

// HeadlessOptions configure a non-interactive run (-p): one prompt, the
// reply as plain text, no terminal needed.
type HeadlessOptions struct {
	Agent          acpconn.Config
	Prompt         string
	Answers        map[string]json.RawMessage // --answers: property key -> value
	AcceptDefaults bool                       // answer forms with their defaults when --answers is absent
	Approve        bool                       // allow tool permissions (default: reject)
	Timeout        time.Duration              // the whole run; 0 = DefaultHeadlessTimeout
	Memory         Memory                     // hooks, history, audit log
	Stdout         io.Writer                  // the agent's reply
	Stderr         io.Writer                  // one line per decision taken for the user, and errors
}

// DefaultHeadlessTimeout bounds a -p run when no --timeout is given.
const DefaultHeadlessTimeout = 10 * time.Minute

// Exit statuses of RunHeadless.
const (
	ExitOK      = 0   // the turn ended with end_turn
	ExitFailed  = 1   // the turn, the agent or the session failed
	ExitTimeout = 124 // --timeout ran out (as timeout(1))
)

// RunHeadless sends one prompt and writes the reply. It returns the exit
// status (see ExitOK and the others), with a one-line reason on Stderr.
func RunHeadless(o HeadlessOptions) int {
	if o.Timeout <= 0 {
		o.Timeout = DefaultHeadlessTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), o.Timeout)
	defer cancel()
	o.Agent.NoRateLimit = true // the core limits questions; nobody floods a script
	if !o.Approve {            // tool calls are rejected, and so are file writes
		o.Agent.Writes, o.Agent.WritesRefusedWhy = acpconn.WritesRefused, "run with --approve to allow them"
	}
	c, err := acpconn.Start(ctx, o.Agent)
	if err != nil {
		return headlessFail(o, ctx, err)
	}
	defer c.Close()
	if _, err := c.NewSession(ctx); err != nil {
		if acpconn.IsAuthRequired(err) {
			fmt.Fprintf(o.Stderr, "elicit: the agent requires sign-in: %s\n", sanitize.Summary(err.Error(), 300))
			return ExitFailed
		}
		return headlessFail(o, ctx, err)
	}
	h := headless{ctx: ctx, o: o, c: c, core: session.New(c, session.Policy{
		Answers: o.Answers, AcceptDefaults: o.AcceptDefaults, Approve: o.Approve,
	}, nil)}
	h.core.SetMemory(o.Memory.For(c))
	defer h.core.Close()
	h.core.Prompted(o.Prompt)
	c.StartPrompt(o.Prompt)
	for {
		select {
		case ev, ok := <-c.Events():
			if !ok {
				return ExitFailed
			}
			if code, done := h.apply(ev); done {
				return code
			}
		case <-ctx.Done():
			h.endLine()
			return headlessFail(o, ctx, ctx.Err())
		}
	}
}

func headlessFail(o HeadlessOptions, ctx context.Context, err error) int {
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
	ctx      context.Context
	o        HeadlessOptions
	c        *acpconn.Conn
	core     *session.Core
	lastByte byte
}

func (h *headless) endLine() {
	if h.lastByte != 0 && h.lastByte != '\n' {
		io.WriteString(h.o.Stdout, "\n")
		h.lastByte = '\n'
	}
}

// apply handles one event; done reports that the run is over.
func (h *headless) apply(ev acpconn.Event) (code int, done bool) {
	o := h.o
	ch := h.core.Settle(h.ctx, h.core.Apply(ev))
	for _, n := range ch.Notes {
		fmt.Fprintln(o.Stderr, "elicit: "+n.Text)
	}
	switch ev := ev.(type) {
	case acpconn.MessageChunk:
		text := ev.Faithful // the stream's writer decides what a terminal may see
		if text == "" {
			text = ev.Text
		}
		if ev.Role == acpconn.RoleAgent && text != "" {
			io.WriteString(o.Stdout, text)
			h.lastByte = text[len(text)-1]
		}
	case acpconn.Notice:
		fmt.Fprintln(o.Stderr, "elicit:", ev.Text)
	case acpconn.FileAccess:
		fmt.Fprintln(o.Stderr, "elicit: "+fileLine(ev))
	case acpconn.UnknownUpdate:
		fmt.Fprintf(o.Stderr, "elicit: the agent sent an update of unknown kind %q\n", sanitize.ID(ev.Kind))
	case acpconn.TurnEnded:
		h.endLine()
		switch {
		case ev.URLNeeded != nil:
			fmt.Fprintln(o.Stderr, "elicit: the agent needs a URL flow completed in a browser; run elicit interactively")
			return ExitFailed, true
		case ev.Err != nil:
			fmt.Fprintln(o.Stderr, "elicit:", sanitize.Text(ev.Err.Error()))
			return ExitFailed, true
		case ev.StopReason != "end_turn":
			fmt.Fprintf(o.Stderr, "elicit: the turn ended: %s\n", stopReason(ev.StopReason))
			return ExitFailed, true
		}
		return ExitOK, true
	case acpconn.AgentExited:
		h.endLine()
		fmt.Fprintf(o.Stderr, "elicit: the agent exited mid-turn (%s)\n", exitWhy(ev))
		for _, l := range ev.Stderr {
			fmt.Fprintln(o.Stderr, "  | "+l)
		}
		return ExitFailed, true
	}
	return 0, false
}

// stopReason shows a turn's stop reason, which the agent chose.
func stopReason(s string) string { return strings.ReplaceAll(sanitize.ID(s), "_", " ") }

// exitWhy says how the agent ended.
func exitWhy(ev acpconn.AgentExited) string {
	why := ev.Exit.String()
	if ev.Reason != "" {
		why = sanitize.Line(ev.Reason) + "; " + why
	}
	return why
}
