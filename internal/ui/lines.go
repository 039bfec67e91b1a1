package ui

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/internal/acpconn"
	"github.com/elicit-dev/elicit/internal/forms"
	"github.com/elicit-dev/elicit/internal/urlcheck"
	"github.com/elicit-dev/elicit/internal/urlconsent"
)

// LinesOptions configure the accessible session: line-based prompts, no
// full-screen redraw, for screen readers and braille displays.
type LinesOptions struct {
	Agent  acpconn.Config
	Opener urlconsent.Opener // nil = the system browser
	In     io.Reader
	Out    io.Writer
}

// RunLines runs a session one line at a time: a "> " prompt, the reply as
// plain text, and every question (permission, form, URL consent) asked as
// numbered or line-based prompts. It returns the exit status.
func RunLines(o LinesOptions) int {
	if o.Opener == nil {
		o.Opener = urlconsent.BrowserOpener{}
	}
	out := o.Out
	fmt.Fprintln(out, "Starting the agent…")
	// Ctrl+C while the agent starts cancels the start (which ends it);
	// start-up is bounded by Agent.StartTimeout.
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	c, err := acpconn.Start(ctx, o.Agent)
	if err != nil {
		fmt.Fprintln(out, "Could not start the agent:", err)
		return 1
	}
	defer c.Close()
	l := &lineSession{o: o, c: c, lines: readLines(o.In)}
	if _, err := c.NewSession(ctx); err != nil {
		if !acpconn.IsAuthRequired(err) || !l.authenticate() {
			fmt.Fprintln(out, "Could not start a session:", err)
			return 1
		}
	}
	fmt.Fprintf(out, "Connected to %s. Type a prompt and press Enter. Ctrl+C cancels a turn; Ctrl+D (or Ctrl+C at the prompt) quits.\n", c.AgentName())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	cancel() // from here Ctrl+C is the loop's
	return l.loop(sig)
}

type lineSession struct {
	o       LinesOptions
	c       *acpconn.Conn
	lines   <-chan string
	running bool
	tools   map[string]string
}

// readLines is the one reader of the input: prompts and form answers both
// come from it.
func readLines(r io.Reader) <-chan string {
	ch := make(chan string)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			ch <- sc.Text()
		}
	}()
	return ch
}

// lineReader feeds huh's accessible forms from the same lines.
type lineReader struct {
	lines <-chan string
	buf   []byte
}

func (r *lineReader) Read(p []byte) (int, error) {
	if len(r.buf) == 0 {
		l, ok := <-r.lines
		if !ok {
			return 0, io.EOF
		}
		r.buf = []byte(l + "\n")
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// ask prints a question and returns the next line ("" at end of input).
func (l *lineSession) ask(q string) (string, bool) {
	fmt.Fprint(l.o.Out, q)
	s, ok := <-l.lines
	return strings.TrimSpace(s), ok
}

func (l *lineSession) authenticate() bool {
	methods := l.c.AuthMethods()
	fmt.Fprintln(l.o.Out, "The agent needs you to sign in. Methods:")
	for i, m := range methods {
		fmt.Fprintf(l.o.Out, "  %d. %s %s\n", i+1, m.Name, m.Description)
	}
	s, _ := l.ask("Method number: ")
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > len(methods) {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := l.c.Authenticate(ctx, methods[n-1].ID); err != nil {
		fmt.Fprintln(l.o.Out, "Authentication failed:", err)
		return false
	}
	_, err = l.c.NewSession(ctx)
	return err == nil
}

func (l *lineSession) loop(sig <-chan os.Signal) int {
	out := l.o.Out
	fmt.Fprint(out, "> ")
	for {
		var lines <-chan string
		if !l.running {
			lines = l.lines
		}
		select {
		case <-sig:
			if !l.running {
				return 0
			}
			fmt.Fprintln(out, "\nCancelling the turn…")
			if err := l.c.CancelTurn(); err != nil {
				fmt.Fprintln(out, err)
			}
		case text, ok := <-lines:
			if !ok {
				return 0
			}
			if strings.TrimSpace(text) == "" {
				fmt.Fprint(out, "> ")
				continue
			}
			l.running = true
			l.tools = map[string]string{}
			l.c.StartPrompt(text)
		case ev := <-l.c.Events():
			if code, done := l.apply(ev); done {
				return code
			}
		}
	}
}

func (l *lineSession) apply(ev acpconn.Event) (int, bool) {
	out := l.o.Out
	switch ev := ev.(type) {
	case acpconn.MessageChunk:
		if ev.Role == acpconn.RoleAgent {
			io.WriteString(out, ev.Text)
		}
	case acpconn.ToolCall:
		if ev.Status != "" && l.tools[ev.ID] != ev.Status {
			l.tools[ev.ID] = ev.Status
			fmt.Fprintf(out, "\n[tool %s: %s]\n", orID(ev), strings.ReplaceAll(ev.Status, "_", " "))
		}
	case acpconn.Plan:
		fmt.Fprintln(out, "\nPlan:")
		for _, e := range ev.Entries {
			fmt.Fprintf(out, "  - %s (%s)\n", e.Content, strings.ReplaceAll(e.Status, "_", " "))
		}
	case acpconn.Notice:
		fmt.Fprintln(out, "\nNote:", ev.Text)
	case acpconn.UnknownUpdate:
		fmt.Fprintf(out, "\nNote: the agent sent an update of unknown kind %q\n", ev.Kind)
	case acpconn.RequestClosed:
		fmt.Fprintln(out, "\nNote: a question was closed:", ev.Reason)
	case acpconn.PermissionRequest:
		l.permission(ev)
	case acpconn.ElicitationRequest:
		l.elicitation(ev)
	case acpconn.ElicitationComplete:
		fmt.Fprintf(out, "\nNote: the agent reports URL flow %s complete.\n", ev.ElicitationID)
	case acpconn.TurnEnded:
		l.running = false
		switch {
		case ev.Err != nil:
			fmt.Fprintln(out, "\nThe turn failed:", ev.Err)
		case ev.StopReason != "end_turn":
			fmt.Fprintln(out, "\nThe turn ended:", strings.ReplaceAll(ev.StopReason, "_", " "))
		default:
			fmt.Fprintln(out)
		}
		fmt.Fprint(out, "> ")
	case acpconn.AgentExited:
		fmt.Fprintln(out, "\nThe agent exited:", ev.Exit)
		for _, s := range ev.Stderr {
			fmt.Fprintln(out, "  | "+s)
		}
		return 1, true
	}
	return 0, false
}

func (l *lineSession) permission(p acpconn.PermissionRequest) {
	fmt.Fprintf(l.o.Out, "\nPermission: the agent wants to run %s.\n", orID(p.ToolCall))
	for i, o := range p.Options {
		fmt.Fprintf(l.o.Out, "  %d. %s\n", i+1, o.Name)
	}
	s, _ := l.ask("Option number (Enter cancels): ")
	id := ""
	if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= len(p.Options) {
		id = p.Options[n-1].ID
	}
	l.c.RespondPermission(p.ID, id)
}

func (l *lineSession) elicitation(req acpconn.ElicitationRequest) {
	out := l.o.Out
	h := forms.Header{Agent: l.c.AgentName(), ToolCall: req.Scope.ToolCallID, Message: req.Message, Index: 1, Total: 1}
	if req.Mode == "form" {
		fmt.Fprintln(out)
		res, err := forms.RunAccessible(req.Schema, h, &lineReader{lines: l.lines}, out)
		if err != nil {
			fmt.Fprintln(out, "The form could not be shown:", err)
			res = forms.Outcome{Action: forms.Cancel}
		}
		l.c.RespondElicitation(req.ID, string(res.Action), res.Content)
		fmt.Fprintf(out, "Answered: %s\n", res.Action)
		return
	}
	r := req.Report
	fmt.Fprintf(out, "\n%s asks you to open a URL: %s\n", h.Agent, req.Message)
	urlcheck.WriteText(out, r)
	s, _ := l.ask("Type open to open it in your browser, no to decline, Enter to cancel: ")
	if strings.EqualFold(s, "open") && r.MaxSeverity() >= urlcheck.High {
		// As on the full screen, a high-severity warning needs a second yes.
		s, _ = l.ask("This URL has a high-severity warning. Type open again to open it anyway: ")
	}
	switch strings.ToLower(s) {
	case "open":
		l.c.RespondElicitation(req.ID, "accept", nil)
		if err := l.o.Opener.Open(r.URL); err != nil {
			fmt.Fprintln(out, "Could not open the browser:", err)
		}
	case "no", "n", "decline":
		l.c.RespondElicitation(req.ID, "decline", nil)
	default:
		l.c.RespondElicitation(req.ID, "cancel", nil)
	}
}
