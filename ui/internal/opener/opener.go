// Package opener opens a session on a running agent the same way for
// every front end (the full screen, the line session and -p): it signs in
// when told to, or without asking when the agent wants it and the
// environment or an API key allows it; it creates a session or takes up a
// past one (session/resume, session/load with its replay, else a new one
// with the reason); and it sets the mode and the model by id or name. It
// draws nothing and asks nobody: the Result says what happened, and each
// front end says it in its own way.
//
//	res := opener.Open(ctx, conn, opener.Target{Resume: true, Mode: "code", Auto: opener.Auto{Env: os.Environ()}})
//	switch {
//	case res.AuthRequired(): // offer the methods (res.Err has the agent's reason)
//	case res.Err != nil: // could not open
//	case res.Fresh != "": // a new session: nothing to resume, and why
//	}
package opener

import (
	"context"
	"errors"
	"fmt"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
)

// Target says which session to open and how to sign in first.
type Target struct {
	// Resume takes up a past session: ID, or the most recent one in the
	// directory when ID is "".
	Resume bool
	ID     string
	// Replay prefers session/load, whose history the agent replays as
	// events before it answers, to session/resume (no history). Without
	// it session/resume is used, else session/load.
	Replay bool
	// Strict makes a session that cannot be resumed (the agent cannot, or
	// has none) an error wrapping ErrNothingToResume instead of a new
	// session: for a prompt sent at once, where nobody reads the notice.
	Strict bool
	// Keep opens no session: it only signs in (sign-in during a session,
	// which stays as it is).
	Keep bool
	// NewIfGone opens a new session, saying why in Result.Fresh, when the
	// agent answers that it cannot take up ID (an agent error, not
	// sign-in): a remote agent reconnected to after a restart no longer
	// has the session, and asking again would be in vain.
	NewIfGone bool
	// Mode and Model (--mode, --model) are set once the session is open:
	// a choice's id, or its name.
	Mode, Model string
	// Method is a sign-in method to use before anything else (the user's
	// pick); Key is an api-key method's key, sent only in authenticate's
	// _meta. With a Method, Auto is not used.
	Method, Key string
	// Auto signs in without asking when the agent answers "authentication
	// required".
	Auto Auto
}

// ErrNothingToResume is wrapped by a Strict target's error when no past
// session can be taken up.
var ErrNothingToResume = errors.New("nothing to resume")

// SignInError is the failure of the sign-in Target.Method asked for
// (nothing was opened). It unwraps to the agent's error: its reason, and
// acpconn.IsAuthRequired when the agent still wants sign-in.
type SignInError struct {
	Method string // the method's id
	Err    error
}

func (e *SignInError) Error() string { return e.Err.Error() }

// Unwrap is the agent's error.
func (e *SignInError) Unwrap() error { return e.Err }

// Result is what Open did.
type Result struct {
	// State is the session as the agent described it, after the mode and
	// model were set; its ID is "" when none was opened.
	State acpconn.SessionState
	// Opened: a session was created, resumed or loaded (false with Keep,
	// or on an error).
	Opened bool
	// Resumed: a past session was taken up; Replayed: with session/load,
	// so its history arrived as events before Open returned.
	Resumed, Replayed bool
	// Fresh says why a new session was made when one was to be resumed.
	Fresh string
	// SignIn lists the sign-in attempts made without asking (Auto), in
	// order; the last has no error when one worked.
	SignIn []Attempt
	// Settings says what became of Mode and Model, in that order (only
	// those asked for).
	Settings []Setting
	// Err is why the session could not be opened: acpconn.IsAuthRequired
	// when the agent still wants sign-in (its reason in the error).
	Err error
}

// AuthRequired reports that the agent wants sign-in before the session
// opens.
func (r Result) AuthRequired() bool { return acpconn.IsAuthRequired(r.Err) }

// SignedIn is the method Auto signed in with, and whether one did.
func (r Result) SignedIn() (acpconn.AuthMethod, bool) {
	if n := len(r.SignIn); n > 0 && r.SignIn[n-1].Err == nil {
		return r.SignIn[n-1].Method, true
	}
	return acpconn.AuthMethod{}, false
}

// Open signs in (t.Method), opens the session t names, signs in without
// asking and tries once more if the agent wants it (t.Auto), then sets the
// mode and model. Events the agent sends meanwhile (a load's replay, a
// question) arrive on c.Events() as usual: the caller keeps reading them.
func Open(ctx context.Context, c *acpconn.Conn, t Target) Result {
	var r Result
	if t.Method != "" {
		if err := authenticate(ctx, c, t.Method, t.Key); err != nil {
			r.Err = &SignInError{Method: t.Method, Err: err}
			return r
		}
	}
	if t.Keep {
		return r
	}
	r.Err = openSession(ctx, c, t, &r)
	if r.AuthRequired() && t.Method == "" {
		if r.SignIn = signIn(ctx, c, t.Auto, r.Err); len(r.SignIn) > 0 && r.SignIn[len(r.SignIn)-1].Err == nil {
			r.Err = openSession(ctx, c, t, &r)
		}
	}
	if r.Err != nil {
		return r
	}
	r.Settings = apply(ctx, c, &r.State, t.Mode, t.Model)
	return r
}

// authenticate runs method id, with key in _meta when there is one.
func authenticate(ctx context.Context, c *acpconn.Conn, id, key string) error {
	if key != "" {
		return c.AuthenticateKey(ctx, id, key)
	}
	return c.Authenticate(ctx, id)
}

// openSession creates the session or takes up a past one, filling r.
func openSession(ctx context.Context, c *acpconn.Conn, t Target, r *Result) error {
	r.State, r.Opened, r.Resumed, r.Replayed, r.Fresh = acpconn.SessionState{}, false, false, false, ""
	if t.Resume {
		fresh, err := resume(ctx, c, t, r)
		if err != nil || fresh == "" {
			return err
		}
		if t.Strict {
			return fmt.Errorf("%w: %s", ErrNothingToResume, fresh)
		}
		r.Fresh = fresh
	}
	st, err := c.NewSession(ctx)
	if err != nil {
		return err
	}
	r.State, r.Opened = st, true
	return nil
}

// resume takes up t's session ("" = the most recent in the directory);
// fresh says why none can be, for a new one instead.
func resume(ctx context.Context, c *acpconn.Conn, t Target, r *Result) (fresh string, err error) {
	caps := c.SessionCaps()
	id := t.ID
	switch {
	case !caps.CanReopen():
		return "the agent cannot resume sessions", nil
	case id == "" && !caps.List:
		return "the agent cannot list its sessions (give an id to --resume)", nil
	case id == "":
		list, err := c.ListSessions(ctx)
		if err != nil {
			return "", err
		}
		if len(list) == 0 {
			return "no past session in this directory", nil
		}
		id = list[0].ID
	}
	st, replayed, err := c.OpenSession(ctx, id, t.Replay)
	if err != nil && t.NewIfGone && acpconn.IsAgentError(err) && !acpconn.IsAuthRequired(err) {
		return "the agent could not take up session " + sanitize.ID(id) + ": " + sanitize.Line(err.Error()), nil
	}
	if err != nil {
		return "", err
	}
	r.State, r.Opened, r.Resumed, r.Replayed = st, true, true, replayed
	return "", nil
}
