package opener

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/coder/acp-go-sdk"
	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// start runs the named scripted agent, its events drained.
func start(t *testing.T, script string, env ...string) *acpconn.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	c, err := acpconn.Start(ctx, uitest.ScriptConfig(t, script, env...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	go func() {
		for range c.Events() {
		}
	}()
	return c
}

func open(t *testing.T, c *acpconn.Conn, tg Target) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	return Open(ctx, c, tg)
}

// Taking up a past session: session/load (with its replay) when Replay
// asks for the history, session/resume otherwise; the most recent when no
// id is given.
func TestResumeOrLoad(t *testing.T) {
	for _, tc := range []struct {
		tg           Target
		id           string
		wantReplayed bool
	}{
		{Target{Resume: true, Replay: true}, "s-old", true},
		{Target{Resume: true}, "s-old", false},
		{Target{Resume: true, ID: "s-older"}, "s-older", false},
	} {
		r := open(t, start(t, "sessions"), tc.tg)
		if r.Err != nil || !r.Opened || !r.Resumed || r.Replayed != tc.wantReplayed || r.State.ID != tc.id || r.Fresh != "" {
			t.Errorf("%+v: %+v", tc.tg, r)
		}
	}
}

// An agent that cannot resume: a new session and the reason, or with
// Strict an error wrapping ErrNothingToResume (and no session).
func TestNothingToResume(t *testing.T) {
	r := open(t, start(t, "settings"), Target{Resume: true})
	if r.Err != nil || !r.Opened || r.Resumed || r.Fresh != "the agent cannot resume sessions" || r.State.ID != "s1" {
		t.Errorf("fresh: %+v", r)
	}
	r = open(t, start(t, "settings"), Target{Resume: true, Strict: true})
	if !errors.Is(r.Err, ErrNothingToResume) || r.Opened || !strings.Contains(r.Err.Error(), "the agent cannot resume sessions") {
		t.Errorf("strict: %+v", r)
	}
}

// Mode and model by name or id, however the agent expresses them; an
// unknown value is reported with the choices, and the session stays open.
func TestSettings(t *testing.T) {
	r := open(t, start(t, "settings"), Target{Mode: "Code", Model: "m2"})
	if r.Err != nil || len(r.Settings) != 2 || !r.Settings[0].Changed || !r.Settings[1].Changed || r.Settings[1].Name() != "Model Two" {
		t.Fatalf("%+v", r)
	}
	if mode, _ := r.State.Selector(acpconn.KindMode); mode.Current != "code" || r.State.Model != "m2" {
		t.Errorf("state %+v", r.State)
	}
	r = open(t, start(t, "settings"), Target{Mode: "ask", Model: "nope"})
	if r.Err != nil || !r.Opened || r.Settings[0].Changed || r.Settings[0].Err != nil ||
		r.Settings[1].Err == nil || r.Settings[1].Err.Error() != "--model nope: the agent offers m1, m2" {
		t.Errorf("%+v", r.Settings)
	}
	r = open(t, start(t, "bare"), Target{Mode: "x"})
	if r.Err != nil || r.Settings[0].Err == nil || r.Settings[0].Err.Error() != "--mode x: the agent offers no mode" {
		t.Errorf("%+v", r.Settings)
	}
}

// Sign-in: a method asked for runs first, and Keep then opens nothing;
// without a method, Auto signs in when the agent asks, and only then.
func TestSignIn(t *testing.T) {
	c := start(t, "signin", uitest.SignInEnv(t)...)
	r := open(t, c, Target{})
	if !r.AuthRequired() || len(r.SignIn) != 0 {
		t.Fatalf("nothing to sign in with: %+v", r)
	}
	r = open(t, c, Target{Method: "gem", Key: "wrong"})
	var se *SignInError
	if !errors.As(r.Err, &se) || !r.AuthRequired() || acpconn.AgentReason(r.Err) != "Gemini API key is missing or not configured." {
		t.Fatalf("a wrong key: %+v", r)
	}
	if r = open(t, c, Target{Method: "gem", Key: "sekret", Keep: true}); r.Err != nil || r.Opened {
		t.Fatalf("keep: %+v", r)
	}
	if r = open(t, c, Target{}); r.Err != nil || !r.Opened || len(r.SignIn) != 0 {
		t.Fatalf("signed in: %+v", r)
	}

	c = start(t, "signin", uitest.SignInEnv(t, "ELICIT_TEST_KEY=zq9secret")...)
	r = open(t, c, Target{Auto: Auto{Env: uitest.SignInEnv(t, "ELICIT_TEST_KEY=zq9secret")}})
	if m, ok := r.SignedIn(); r.Err != nil || !ok || m.ID != "env" || r.SignIn[0].Why != "its variables are set" {
		t.Fatalf("env_var: %+v", r)
	}
	c = start(t, "signin", uitest.SignInEnv(t)...)
	r = open(t, c, Target{Auto: Auto{Env: []string{"K=wrong", "K=sekret"}, KeyEnv: "K"}})
	if m, ok := r.SignedIn(); r.Err != nil || !ok || m.ID != "gem" || r.SignIn[0].Why != "the key in K" {
		t.Fatalf("api key: %+v", r)
	}
	c = start(t, "signin", uitest.SignInEnv(t)...)
	r = open(t, c, Target{Auto: Auto{Env: []string{"K=wrong"}, KeyEnv: "K", Off: true}})
	if !r.AuthRequired() || len(r.SignIn) != 0 {
		t.Fatalf("off: %+v", r)
	}
	r = open(t, c, Target{Auto: Auto{Env: []string{"K=wrong"}, KeyEnv: "K"}})
	if !r.AuthRequired() || len(r.SignIn) != 1 || r.SignIn[0].Err == nil {
		t.Fatalf("a wrong key: %+v", r)
	}
}

// The candidates: api-key methods first when there is a key, then env_var
// methods whose required variables are all set; nothing else.
func TestCandidates(t *testing.T) {
	ms := []acpconn.AuthMethod{
		{ID: "term", Kind: acpconn.AuthTerminal},
		{ID: "env1", Kind: acpconn.AuthEnvVar, Vars: []acpconn.AuthVar{{Name: "A"}, {Name: "B", Optional: true}}},
		{ID: "env2", Kind: acpconn.AuthEnvVar, Vars: []acpconn.AuthVar{{Name: "A"}, {Name: "C"}}},
		{ID: "agent", Kind: acpconn.AuthAgent},
		{ID: "key", Kind: acpconn.AuthAPIKey},
	}
	ids := func(a Auto) string {
		var out []string
		for _, c := range a.Candidates(ms) {
			out = append(out, c.Method.ID)
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct {
		a    Auto
		want string
	}{
		{Auto{Env: []string{}}, ""},
		{Auto{Env: []string{"A=1"}}, "env1"},
		{Auto{Env: []string{"A=1", "C=2"}}, "env1 env2"},
		{Auto{Env: []string{"A=", "C=2"}}, ""},
		{Auto{Env: []string{"A=1", "K=k"}, KeyEnv: "K"}, "key env1"},
		{Auto{Env: []string{"A=1"}, KeyEnv: "K"}, "env1"},
		{Auto{Env: []string{"A=1", "K=k"}, KeyEnv: "K", Off: true}, ""},
	} {
		if got := ids(tc.a); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.a, got, tc.want)
		}
	}
}

// Help says, for each method, the exact thing to do without a screen.
func TestHelp(t *testing.T) {
	ms := []acpconn.AuthMethod{
		{Name: "Log in", Kind: acpconn.AuthTerminal, Command: []string{"agent", "login"}},
		{Name: "Use A", Kind: acpconn.AuthEnvVar, Vars: []acpconn.AuthVar{{Name: "A"}, {Name: "C"}}},
		{Name: "Key", Kind: acpconn.AuthAPIKey},
		{Name: "OAuth", Kind: acpconn.AuthAgent},
	}
	got := Help(errors.New("x"), ms, Auto{Env: []string{"A=1"}, KeyEnv: "K"})
	for _, want := range []string{
		"the agent requires sign-in",
		"\n  Log in: run agent login in a terminal, then run elicit again",
		"\n  Use A: set A, C in the environment (elicit then signs in with it); C not set",
		"\n  Key: put the key in an environment variable and run elicit with --api-key-env NAME",
		"\n  OAuth: the agent signs in itself when asked: choose it in elicit's full screen",
		"\n  (K, named for the API key, is not set)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("help lacks %q:\n%s", want, got)
		}
	}
	auggie := &acp.RequestError{Code: -32000, Message: "Authentication required: Auggie does not currently support authenticating over ACP."}
	got = Help(auggie, []acpconn.AuthMethod{{Name: "Log in", Kind: acpconn.AuthTerminal, Command: []string{"copilot", "login", "it's"}}}, Auto{})
	for _, want := range []string{"the agent requires sign-in: Authentication required: Auggie does not currently support", "Log in: run copilot login 'it'\\''s'"} {
		if !strings.Contains(got, want) {
			t.Errorf("help lacks %q:\n%s", want, got)
		}
	}
	if got := Help(nil, nil, Auto{}); !strings.Contains(got, "offers no sign-in method") {
		t.Errorf("no methods: %s", got)
	}
	if got := Help(nil, ms[:1], Auto{Env: []string{"K=k"}, KeyEnv: "K"}); !strings.Contains(got, "the key in K was not used: the agent offers no API-key method") {
		t.Errorf("no key method: %s", got)
	}
}

func init() {
	// gone can resume sessions but no longer has any (a server restarted
	// behind a remote agent's URL).
	uitest.Scripts["gone"] = func(a *uitest.RawAgent) {
		a.Serve(map[string]any{"agentCapabilities": map[string]any{"loadSession": true,
			"sessionCapabilities": map[string]any{"resume": map[string]any{}}}},
			func(m, p map[string]any) {
				switch m["method"] {
				case "session/resume", "session/load":
					a.Fail(m, -32002, "Resource not found: session s-lost", nil)
				case "session/new":
					a.Reply(m, map[string]any{"sessionId": "s-new"})
				}
			})
	}
}

// NewIfGone: an agent that no longer has the session answers with an
// error; a new session is opened and Fresh says why. Without it the
// error stands.
func TestNewIfGone(t *testing.T) {
	r := open(t, start(t, "gone"), Target{Resume: true, ID: "s-lost", NewIfGone: true})
	if r.Err != nil || !r.Opened || r.Resumed || r.State.ID != "s-new" || !strings.Contains(r.Fresh, "Resource not found") {
		t.Errorf("NewIfGone: %+v", r)
	}
	r = open(t, start(t, "gone"), Target{Resume: true, ID: "s-lost"})
	if r.Err == nil || r.Opened {
		t.Errorf("without NewIfGone: %+v", r)
	}
}
