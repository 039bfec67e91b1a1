package headless

import (
	"errors"
	"fmt"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/ui/internal/opener"
	"github.com/elicit-dev/elicit/ui/internal/say"
)

// target is the session -p opens, as every front end does with the
// opener: signing in without asking when the agent wants it and the
// environment or --api-key-env allows it, taking up the session --resume
// or -c names (with session/resume, so no history is replayed if the
// agent can; with nothing to resume it fails, for the prompt would go to
// a session without the context it assumes), then setting --mode and
// --model.
func (h *headless) target() opener.Target {
	o := h.o
	return opener.Target{Resume: o.Resume, ID: o.ResumeID, Strict: true, Mode: o.Mode, Model: o.Model, Auto: h.auto()}
}

// opened says what the opener did, and fails the run when it could not
// open the session or set --mode or --model.
func (h *headless) opened(res opener.Result) error {
	h.saySignIn(res.SignIn)
	h.signInTried = h.signInTried || len(res.SignIn) > 0
	if errors.Is(res.Err, opener.ErrNothingToResume) {
		return fmt.Errorf("%w (--resume, -c)", res.Err)
	}
	if res.Err != nil {
		return res.Err
	}
	h.st = res.State
	for _, s := range res.Settings {
		if s.Err != nil {
			return s.Err
		}
	}
	return nil
}

// attach makes c the run's connection and returns its events.
func (h *headless) attach(c *acpconn.Conn) <-chan acpconn.Event {
	h.c = c
	h.core.SetConn(c)
	h.core.SetMemory(h.o.Memory.For(c))
	return c.Events()
}

// saySignIn says which sign-in was made without asking.
func (h *headless) saySignIn(tried []opener.Attempt) {
	for _, at := range tried {
		text, _ := say.SignIn(at)
		fmt.Fprintln(h.o.Stderr, "elicit: "+text)
	}
}

// signInAtPrompt is the outcome of signing in after the agent refused
// the prompt.
type signInAtPrompt struct {
	why   error
	tried []opener.Attempt
}

// trySignIn starts signing in without asking, once, when the agent
// refused the prompt for want of sign-in and something could sign in;
// the loop sends the prompt again when it worked.
func (h *headless) trySignIn(why error) bool {
	if h.signInTried || h.c == nil {
		return false
	}
	h.signInTried = true
	ms := h.c.AuthMethods()
	if len(ms) == 0 {
		ms = acpconn.AuthMethodsIn(why, nil)
	}
	if len(h.auto().Candidates(ms)) == 0 {
		return false
	}
	c, ctx, auto := h.c, h.ctx, h.auto()
	go func() { h.signedIn <- signInAtPrompt{why, opener.SignIn(ctx, c, auto, why)} }()
	return true
}

// drain handles the events already waiting, without waiting for more.
func (h *headless) drain(events <-chan acpconn.Event) (code int, done bool) {
	for {
		select {
		case ev := <-events:
			if code, done := h.apply(ev); done {
				return code, true
			}
		default:
			return 0, false
		}
	}
}

// auto is what the run may sign in with: the agent's environment and the
// API key variable.
func (h *headless) auto() opener.Auto {
	return opener.Auto{Env: h.o.Agent.Env, KeyEnv: h.o.APIKeyEnv}
}

// signInFailed says why the agent wants sign-in and, for each method, the
// exact thing to do without a screen.
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
	fmt.Fprintln(h.o.Stderr, "elicit: "+opener.Help(err, methods, h.auto()))
	return ExitFailed
}
