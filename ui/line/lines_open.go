package line

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/ui/internal/opener"
	"github.com/elicit-dev/elicit/ui/internal/say"
)

// open opens the session t names with the opener, as every front end
// does, while the agent's events are handled (a question it asks meanwhile
// is asked at once; a loaded session's history is printed as it arrives).
// It says which sign-in it made without asking.
func (l *lineSession) open(ctx context.Context, t opener.Target) opener.Result {
	var res opener.Result
	l.replaying = t.Resume
	_ = l.wait(nil, func() error { res = opener.Open(ctx, l.c, t); return nil })
	l.replaying, l.msgID = false, ""
	if l.replayed {
		io.WriteString(l.o.Out, "\n")
	}
	l.saySignIn(res.SignIn)
	return res
}

// saySignIn says which sign-in was made without asking.
func (l *lineSession) saySignIn(tried []opener.Attempt) {
	for _, at := range tried {
		text, _ := say.SignIn(at)
		fmt.Fprintln(l.o.Out, strings.ToUpper(text[:1])+text[1:]+".")
	}
}

// auto is what the session may sign in with without asking.
func (l *lineSession) auto() opener.Auto {
	return opener.Auto{Env: l.o.Agent.Env, KeyEnv: l.o.APIKeyEnv}
}

// signInAtPrompt answers a prompt the agent refused for want of sign-in:
// it signs in without asking where it can, else offers the methods; once
// signed in, the prompt goes again (once: a second refusal is reported).
func (l *lineSession) signInAtPrompt(why error) {
	out := l.o.Out
	ctx, cancel := context.WithTimeout(context.Background(), signInTimeout)
	defer cancel()
	fmt.Fprintln(out)
	var tried []opener.Attempt
	_ = l.wait(nil, func() error { tried = opener.SignIn(ctx, l.c, l.auto(), why); return nil })
	l.saySignIn(tried)
	if n := len(tried); n == 0 || tried[n-1].Err != nil {
		res, ok := l.authenticate(ctx, why, opener.Target{Keep: true, Auto: l.auto()})
		if !ok || res.Err != nil {
			fmt.Fprintln(out, "Not signed in: the prompt was not sent again.")
			return
		}
	}
	fmt.Fprintln(out, "Signed in; sending the prompt again.")
	l.resent = true
	l.send(l.lastPrompt)
}

// signInTimeout bounds a sign-in at the prompt, the user's choices
// included.
const signInTimeout = 5 * time.Minute

// opened says what the opener did: the session resumed, or why a new one
// started instead, and what became of --mode and --model.
func (l *lineSession) opened(res opener.Result) {
	out := l.o.Out
	switch {
	case res.Resumed && res.Replayed && l.replayed:
		fmt.Fprintf(out, "Resumed session %s; its history is above.\n", sanitize.ID(res.State.ID))
	case res.Resumed:
		fmt.Fprintf(out, "Resumed session %s.\n", sanitize.ID(res.State.ID))
	case res.Fresh != "":
		fmt.Fprintf(out, "Nothing to resume (%s): this is a new session.\n", res.Fresh)
	}
	for _, s := range res.Settings {
		what := strings.ToUpper(s.Kind[:1]) + s.Kind[1:]
		switch {
		case s.Err != nil:
			fmt.Fprintln(out, "Note:", sanitize.Text(s.Err.Error()))
		case s.Changed:
			fmt.Fprintf(out, "%s set to %s.\n", what, s.Name())
		default:
			fmt.Fprintf(out, "%s is %s already.\n", what, s.Name())
		}
	}
}

// replayChunk prints a message of a loaded session's history as the
// session would have shown it: what the user typed after "> ", the
// agent's reply below it. The first one says a history follows.
func (l *lineSession) replayChunk(ev acpconn.MessageChunk) {
	out := l.o.Out
	if ev.Role != acpconn.RoleAgent && ev.Role != acpconn.RoleUser {
		return
	}
	first := !l.replayed
	if first {
		l.replayed = true
		io.WriteString(out, "The session's history:\n")
	}
	if first || ev.Role != l.lastRole || ev.MessageID != "" && ev.MessageID != l.msgID {
		if !first {
			io.WriteString(out, "\n")
		}
		if ev.Role == acpconn.RoleUser {
			io.WriteString(out, "> ")
		}
		l.lastRole, l.msgID = ev.Role, ev.MessageID
	}
	io.WriteString(out, ev.Text)
}

// reason is the agent's words for a failure, else the error.
func reason(err error) string {
	if r := acpconn.AgentReason(err); r != "" {
		return r
	}
	return sanitize.Text(err.Error())
}

// authenticate offers the agent's sign-in methods, with its reason, until
// one works or the user gives up (0 or end of input; ok is false): nothing
// loops by itself. An env_var method is used when its variables are set;
// an api-key is asked for; a terminal method's command is printed to run,
// never sent to authenticate. The session t names opens once signed in:
// res is that opening, which may have failed for another reason.
func (l *lineSession) authenticate(ctx context.Context, why error, t opener.Target) (res opener.Result, ok bool) {
	out := l.o.Out
	methods := l.c.AuthMethods()
	if len(methods) == 0 {
		methods = acpconn.AuthMethodsIn(why, l.o.Agent.Argv)
	}
	if len(methods) == 0 {
		fmt.Fprintln(out, opener.Help(why, nil, t.Auto))
		return res, false
	}
	fmt.Fprintln(out, opener.Reason(why)) // the methods follow
	t.Auto.Off = true                     // what it could do alone was done
	for {
		fmt.Fprintln(out, "Sign-in methods:")
		for i, m := range methods {
			fmt.Fprintf(out, "  %d. %s\n", i+1, strings.ReplaceAll(say.MethodLabel(m), "\n  ", "; "))
		}
		s, answered := l.question("Method number (0, or Enter alone, quits): ")
		n, err := strconv.Atoi(s)
		if !answered || err != nil || n < 1 || n > len(methods) {
			return res, false
		}
		m := methods[n-1]
		t.Method, t.Key = m.ID, ""
		switch m.Kind {
		case acpconn.AuthTerminal:
			fmt.Fprintf(out, "Run this in a terminal, then start elicit again:\n  %s\n", m.CommandLine())
			if m.Guess {
				fmt.Fprintf(out, "(%s.)\n", acpconn.GuessNote)
			}
			return res, false
		case acpconn.AuthEnvVar:
			env := l.o.Agent.Env
			if env == nil {
				env = os.Environ()
			}
			if miss := m.Missing(env); len(miss) > 0 {
				fmt.Fprintf(out, "Set %s in the environment, then start elicit again.\n", strings.Join(miss, ", "))
				return res, false
			}
		case acpconn.AuthAPIKey:
			t.Key, _ = l.question("API key (it is echoed; sent only in the sign-in request): ")
		}
		var failed *opener.SignInError
		if res = l.open(ctx, t); !res.AuthRequired() && !errors.As(res.Err, &failed) {
			return res, true
		}
		fmt.Fprintln(out, "Sign-in did not succeed:", reason(res.Err))
	}
}
