package line

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/ui/internal/say"
	"github.com/elicit-dev/elicit/urlconsent"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/internal/session"
)

// tries is how many answers that are not a whole expected word a line
// question takes before it gives up (cancel: nothing is granted).
const tries = 3

// question prints q and returns the next line typed after it appeared;
// lines typed ahead are discarded (and counted). ok is false at end of
// input.
func (l *lineSession) question(q string) (string, bool) {
	shown := time.Now()
	if n := l.in.since(shown); n > 0 {
		fmt.Fprintf(l.o.Out, "(%s typed before this question appeared %s ignored)\n", say.Plural(n, "line", "lines"), map[bool]string{true: "was", false: "were"}[n == 1])
	}
	fmt.Fprint(l.o.Out, q)
	s, ok := l.in.next()
	return strings.TrimSpace(s.s), ok
}

// confirm asks until the answer is word (true), empty (false) or input
// ends; anything else is asked again, at most tries times.
func (l *lineSession) confirm(q, word string) bool {
	for range tries {
		s, ok := l.question(q)
		switch {
		case !ok || s == "":
			return false
		case strings.EqualFold(s, word):
			return true
		}
		fmt.Fprintf(l.o.Out, "Type %s exactly, or press Enter.\n", word)
	}
	return false
}

// ask puts q to the user and returns the answer.
func (l *lineSession) ask(q *session.Question) session.Outcome {
	switch q.Kind {
	case session.Permission:
		return l.permission(q)
	case session.Form:
		return l.form(q)
	}
	return l.url(q)
}

func (l *lineSession) header(q *session.Question) forms.Header {
	return forms.Header{Agent: l.c.AgentName(), ToolCall: q.Tool, Message: q.Elicit.Message, Index: 1, Total: 1}
}

// permission reads out what is asked (the tool call, its diffs line by
// line, the files that run code later), then takes an option's number or
// its name, whole; Enter cancels.
func (l *lineSession) permission(q *session.Question) session.Outcome {
	p := q.Perm
	if w := p.Write; w != nil {
		fmt.Fprintf(l.o.Out, "\nWrite: the agent writes %s; elicit asks because %s.\n", w.Path, w.Why)
		if w.Risk != "" {
			fmt.Fprintf(l.o.Out, "Warning: %s runs code later: %s.\n", w.Path, w.Risk)
		}
	} else {
		fmt.Fprintf(l.o.Out, "\nPermission: the agent wants to run %s.\n", sanitize.Line(q.Tool))
		for _, d := range p.ToolCall.Diffs {
			if why := acpconn.CodeRisk(relPath(l.root(), d.Path)); why != "" {
				fmt.Fprintf(l.o.Out, "Warning: %s runs code later: %s.\n", relPath(l.root(), d.Path), why)
			}
		}
	}
	l.readDiffs(p.ToolCall)
	for i, o := range p.Options {
		fmt.Fprintf(l.o.Out, "  %d. %s\n", i+1, sanitize.Line(o.Name))
	}
	for range tries {
		s, ok := l.question("Type an option's number or name (Enter cancels): ")
		if !ok || s == "" {
			return session.Outcome{Action: session.Cancel}
		}
		for i, o := range p.Options {
			if s == strconv.Itoa(i+1) || strings.EqualFold(s, sanitize.Line(o.Name)) {
				return session.Outcome{Action: session.Choose, OptionID: o.ID}
			}
		}
		fmt.Fprintln(l.o.Out, "That is not one of the options.")
	}
	return session.Outcome{Action: session.Cancel}
}

func (l *lineSession) form(q *session.Question) session.Outcome {
	fmt.Fprintln(l.o.Out)
	if n := l.in.since(time.Now()); n > 0 {
		fmt.Fprintf(l.o.Out, "(%s typed before this form appeared ignored)\n", say.Plural(n, "line", "lines"))
	}
	res, err := forms.RunAccessible(q.Elicit.Schema, l.header(q), &lineReader{in: l.in}, l.o.Out)
	if err != nil {
		fmt.Fprintln(l.o.Out, "The form could not be shown:", sanitize.Text(err.Error()))
		return session.Outcome{Action: session.Cancel}
	}
	switch res.Action {
	case forms.Accept:
		return session.Outcome{Action: session.Accept, Content: res.Content}
	case forms.Decline:
		return session.Outcome{Action: session.Decline}
	}
	return session.Outcome{Action: session.Cancel}
}

// url asks for consent with urlconsent's line prompts (the word open;
// for a high-severity warning the site's name typed out), through
// l.question, which drops lines typed before the question appeared.
func (l *lineSession) url(q *session.Question) session.Outcome {
	h := urlconsent.Header{Agent: l.c.AgentName(), ToolCall: q.Tool, Message: q.Elicit.Message}
	act, err := urlconsent.RunAccessible(q.Elicit.Report, h, l.o.Out, l.question, l.o.Opener)
	if err != nil {
		fmt.Fprintln(l.o.Out, "The URL cannot be opened:", sanitize.Text(err.Error()))
		return session.Outcome{Action: session.Cancel}
	}
	switch act {
	case urlconsent.Open, urlconsent.OpenedByUser:
		return session.Outcome{Action: session.Accept}
	case urlconsent.Decline:
		return session.Outcome{Action: session.Decline}
	}
	return session.Outcome{Action: session.Cancel}
}

// lineReader feeds huh's accessible forms from the same lines.
type lineReader struct {
	in  *lineInput
	buf []byte
}

func (r *lineReader) Read(p []byte) (int, error) {
	if len(r.buf) == 0 {
		l, ok := r.in.next()
		if !ok {
			return 0, io.EOF
		}
		r.buf = []byte(l.s + "\n")
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// authenticate offers the agent's sign-in methods, with its reason, until
// one works or the user gives up (0 or end of input): nothing loops by
// itself. An env_var method is used when its variables are set; an
// api-key is asked for; a terminal method's command is printed to run,
// never sent to authenticate.
func (l *lineSession) authenticate(why error) bool {
	out := l.o.Out
	methods := l.c.AuthMethods()
	if len(methods) == 0 {
		methods = acpconn.AuthMethodsIn(why, l.o.Agent.Argv)
	}
	fmt.Fprintln(out, acpconn.SignInHelp(why, methods))
	if len(methods) == 0 {
		return false
	}
	for {
		fmt.Fprintln(out, "Sign-in methods:")
		for i, m := range methods {
			fmt.Fprintf(out, "  %d. %s\n", i+1, strings.ReplaceAll(say.MethodLabel(m), "\n  ", "; "))
		}
		s, ok := l.question("Method number (0 quits): ")
		n, err := strconv.Atoi(s)
		if !ok || err != nil || n < 1 || n > len(methods) {
			return false
		}
		m := methods[n-1]
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		switch m.Kind {
		case acpconn.AuthTerminal:
			fmt.Fprintf(out, "Run this in a terminal, then start elicit again:\n  %s\n", m.CommandLine())
			cancel()
			return false
		case acpconn.AuthEnvVar:
			env := l.o.Agent.Env
			if env == nil {
				env = os.Environ()
			}
			if miss := m.Missing(env); len(miss) > 0 {
				fmt.Fprintf(out, "Set %s in the environment, then start elicit again.\n", strings.Join(miss, ", "))
				cancel()
				return false
			}
			err = l.c.Authenticate(ctx, m.ID)
		case acpconn.AuthAPIKey:
			key, _ := l.question("API key (it is echoed; sent only in the sign-in request): ")
			err = l.c.AuthenticateKey(ctx, m.ID, key)
		default:
			err = l.c.Authenticate(ctx, m.ID)
		}
		if err == nil {
			err = l.wait(nil, func() error { _, err := l.c.NewSession(ctx); return err })
		}
		cancel()
		if err == nil {
			return true
		}
		reason := acpconn.AgentReason(err)
		if reason == "" {
			reason = sanitize.Text(err.Error())
		}
		fmt.Fprintln(out, "Sign-in did not succeed:", reason)
	}
}
