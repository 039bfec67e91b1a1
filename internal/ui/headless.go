package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/elicit-dev/elicit/internal/acpconn"
	"github.com/elicit-dev/elicit/internal/forms"
	"github.com/elicit-dev/elicit/internal/sanitize"
)

// HeadlessOptions configure a non-interactive run (-p): one prompt, the
// reply as plain text, no terminal needed.
type HeadlessOptions struct {
	Agent   acpconn.Config
	Prompt  string
	Answers map[string]json.RawMessage // --answers: property key -> value
	Approve bool                       // allow tool permissions (default: reject)
	Stdout  io.Writer                  // the agent's reply
	Stderr  io.Writer                  // one line per decision taken for the user, and errors
}

// RunHeadless sends one prompt and writes the reply. It returns the exit
// status: 0 when the turn ended with end_turn, 1 otherwise (with a one-line
// reason on Stderr).
func RunHeadless(o HeadlessOptions) int {
	ctx := context.Background() // start-up is bounded by Agent.StartTimeout
	o.Agent.NoRateLimit = true  // no person to flood: the answers are scripted
	if !o.Approve {             // tool calls are rejected, and so are file writes
		o.Agent.Writes, o.Agent.WritesRefusedWhy = acpconn.WritesRefused, "run with --approve to allow them"
	}
	c, err := acpconn.Start(ctx, o.Agent)
	if err != nil {
		fmt.Fprintln(o.Stderr, "elicit:", err)
		return 1
	}
	defer c.Close()
	if _, err := c.NewSession(ctx); err != nil {
		if acpconn.IsAuthRequired(err) {
			fmt.Fprintln(o.Stderr, "elicit: the agent requires authentication; run elicit interactively once to sign in")
		} else {
			fmt.Fprintln(o.Stderr, "elicit:", err)
		}
		return 1
	}
	c.StartPrompt(o.Prompt)
	h := headless{o: o, c: c}
	for ev := range c.Events() {
		if code, done := h.apply(ev); done {
			return code
		}
	}
	return 1
}

type headless struct {
	o        HeadlessOptions
	c        *acpconn.Conn
	lastByte byte
}

// apply handles one event; done reports that the run is over.
func (h *headless) apply(ev acpconn.Event) (code int, done bool) {
	o := h.o
	switch ev := ev.(type) {
	case acpconn.MessageChunk:
		if ev.Role == acpconn.RoleAgent && ev.Text != "" {
			io.WriteString(o.Stdout, ev.Text)
			h.lastByte = ev.Text[len(ev.Text)-1]
		}
	case acpconn.PermissionRequest:
		id, name := pickPermission(ev, o.Approve)
		h.c.RespondPermission(ev.ID, id)
		fmt.Fprintf(o.Stderr, "elicit: permission for %s: %s (non-interactive)\n", orID(ev.ToolCall), name)
	case acpconn.ElicitationRequest:
		h.answer(ev)
	case acpconn.Notice:
		fmt.Fprintln(o.Stderr, "elicit:", ev.Text)
	case acpconn.UnknownUpdate:
		fmt.Fprintf(o.Stderr, "elicit: the agent sent an update of unknown kind %q\n", ev.Kind)
	case acpconn.TurnEnded:
		if h.lastByte != 0 && h.lastByte != '\n' {
			io.WriteString(o.Stdout, "\n")
		}
		switch {
		case ev.URLNeeded != nil:
			fmt.Fprintln(o.Stderr, "elicit: the agent needs a URL flow completed in a browser; run elicit interactively")
			return 1, true
		case ev.Err != nil:
			fmt.Fprintln(o.Stderr, "elicit:", ev.Err)
			return 1, true
		case ev.StopReason != "end_turn":
			fmt.Fprintf(o.Stderr, "elicit: the turn ended: %s\n", strings.ReplaceAll(ev.StopReason, "_", " "))
			return 1, true
		}
		return 0, true
	case acpconn.AgentExited:
		why := ev.Exit.String()
		if ev.Reason != "" {
			why = ev.Reason + "; " + why
		}
		fmt.Fprintf(o.Stderr, "elicit: the agent exited mid-turn (%s)\n", why)
		for _, l := range ev.Stderr {
			fmt.Fprintln(o.Stderr, "  | "+l)
		}
		return 1, true
	}
	return 0, false
}

// answer replies to an elicitation from the answers file and defaults;
// what cannot be answered is declined with the reason on stderr.
func (h *headless) answer(ev acpconn.ElicitationRequest) {
	if ev.Mode == "url" {
		h.c.RespondElicitation(ev.ID, "decline", nil)
		fmt.Fprintf(h.o.Stderr, "elicit: declined a URL request (%s): no terminal to ask for consent\n", ev.Report.Site())
		return
	}
	content, err := ev.Schema.FromAnswers(h.o.Answers)
	if err != nil {
		h.c.RespondElicitation(ev.ID, "decline", nil)
		fmt.Fprintf(h.o.Stderr, "elicit: declined %q: %v\n", sanitize.Summary(ev.Message, 60), err)
		return
	}
	h.c.RespondElicitation(ev.ID, string(forms.Accept), content)
}

// pickPermission chooses the first allow-once option when approving, else
// the first reject-once; with neither it cancels.
func pickPermission(p acpconn.PermissionRequest, approve bool) (id, name string) {
	want := []string{"reject_once", "reject_always"}
	if approve {
		want = []string{"allow_once", "allow_always"}
	}
	for _, k := range want {
		for _, o := range p.Options {
			if o.Kind == k {
				return o.ID, o.Name
			}
		}
	}
	return "", "cancelled"
}
