package opener

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
)

// Auto is what Open may sign in with when the agent wants sign-in and
// nobody is asked. Each front end passes the same: the agent's
// environment, and the name of the variable holding an API key.
type Auto struct {
	// Env is the agent's environment (KEY=VALUE entries; nil: elicit's
	// own). An env_var method whose required variables it sets is used:
	// the agent runs with them already, authenticate tells it to use them.
	Env []string
	// KeyEnv names the variable of Env that holds an API key
	// (--api-key-env NAME, or the agent's api_key_env in the config). An
	// api-key method is used with it: the key is read when needed and sent
	// only in authenticate's _meta, never kept, printed or traced.
	KeyEnv string
	// Off turns automatic sign-in off.
	Off bool
}

// Attempt is one sign-in Open made without asking.
type Attempt struct {
	Method acpconn.AuthMethod
	// Why says what made it possible: "its variables are set", "the key
	// in NAME".
	Why string
	Err error // nil: signed in
}

func (a Auto) env() []string {
	if a.Env == nil {
		return os.Environ()
	}
	return a.Env
}

// key is the API key KeyEnv names, "" when there is none.
func (a Auto) key() string {
	if a.KeyEnv == "" {
		return ""
	}
	v := ""
	for _, kv := range a.env() {
		if k, val, ok := strings.Cut(kv, "="); ok && k == a.KeyEnv {
			v = val // the last entry wins, as in exec
		}
	}
	return v
}

// Candidates are the methods Auto can use, in the order Open tries them:
// api-key methods when a key is given (the user asked for it), then
// env_var methods whose variables are set.
func (a Auto) Candidates(methods []acpconn.AuthMethod) []Attempt {
	if a.Off {
		return nil
	}
	var out []Attempt
	if a.key() != "" {
		for _, m := range methods {
			if m.Kind == acpconn.AuthAPIKey {
				out = append(out, Attempt{Method: m, Why: "the key in " + sanitize.Line(a.KeyEnv)})
			}
		}
	}
	for _, m := range methods {
		if m.Kind == acpconn.AuthEnvVar && len(m.Missing(a.env())) == 0 {
			out = append(out, Attempt{Method: m, Why: "its variables are set"})
		}
	}
	return out
}

// methods are the agent's sign-in methods: initialize's, else those in
// its -32000 error (qwen repeats them there).
func methods(c *acpconn.Conn, why error) []acpconn.AuthMethod {
	if ms := c.AuthMethods(); len(ms) > 0 {
		return ms
	}
	return acpconn.AuthMethodsIn(why, nil)
}

// SignIn signs in without asking, as Open does when the agent wants it,
// for an agent that asks later (at the prompt): each of a's candidates
// among the agent's methods until one works. why is the agent's -32000.
func SignIn(ctx context.Context, c *acpconn.Conn, a Auto, why error) []Attempt {
	return signIn(ctx, c, a, why)
}

// signIn tries each candidate until one works.
func signIn(ctx context.Context, c *acpconn.Conn, a Auto, why error) []Attempt {
	var done []Attempt
	for _, at := range a.Candidates(methods(c, why)) {
		key := ""
		if at.Method.Kind == acpconn.AuthAPIKey {
			key = a.key()
		}
		at.Err = authenticate(ctx, c, at.Method.ID, key)
		done = append(done, at)
		if at.Err == nil {
			break
		}
	}
	return done
}

// Reason is the first line of Help: that the agent requires sign-in,
// and the agent's own reason when it gave one.
func Reason(why error) string {
	if r := acpconn.AgentReason(why); r != "" {
		return "the agent requires sign-in: " + r
	}
	return "the agent requires sign-in"
}

// Help is what to tell someone who cannot be asked (-p) when the agent
// still wants sign-in: the agent's reason, then each method with the
// exact thing to do: the command to run, the variables to set, the flag
// that passes an API key. auto is what was available.
func Help(why error, methods []acpconn.AuthMethod, auto Auto) string {
	var b strings.Builder
	b.WriteString(Reason(why))
	hasKeyMethod := false
	for _, m := range methods {
		fmt.Fprintf(&b, "\n  %s: ", m.Name)
		switch m.Kind {
		case acpconn.AuthTerminal:
			b.WriteString("run " + m.CommandLine())
			if env := m.EnvList(); len(env) > 0 {
				fmt.Fprintf(&b, " (with %s)", sanitize.Line(strings.Join(env, " ")))
			}
			if m.Guess {
				b.WriteString(" (" + acpconn.GuessNote + ")")
			}
			b.WriteString(" in a terminal, then run elicit again")
		case acpconn.AuthEnvVar:
			fmt.Fprintf(&b, "set %s in the environment (elicit then signs in with it)", varList(m))
			if miss := m.Missing(auto.env()); len(miss) > 0 && len(miss) < len(required(m)) {
				fmt.Fprintf(&b, "; %s not set", sanitize.Line(strings.Join(miss, ", ")))
			}
		case acpconn.AuthAPIKey:
			hasKeyMethod = true
			b.WriteString("put the key in an environment variable and run elicit with --api-key-env NAME (or api_key_env = \"NAME\" in the agent's config entry)")
		default:
			b.WriteString("the agent signs in itself when asked: choose it in elicit's full screen")
		}
	}
	switch {
	case len(methods) == 0:
		b.WriteString("\n  the agent offers no sign-in method: sign in as its documentation says, then run elicit again")
	case auto.KeyEnv != "" && auto.key() == "":
		fmt.Fprintf(&b, "\n  (%s, named for the API key, is not set)", sanitize.Line(auto.KeyEnv))
	case auto.KeyEnv != "" && !hasKeyMethod:
		fmt.Fprintf(&b, "\n  (the key in %s was not used: the agent offers no API-key method)", sanitize.Line(auto.KeyEnv))
	}
	return b.String()
}

// varList names an env_var method's variables, the optional ones marked.
func varList(m acpconn.AuthMethod) string {
	names := make([]string, 0, len(m.Vars))
	for _, v := range m.Vars {
		n := sanitize.Line(v.Name)
		if v.Optional {
			n += " (optional)"
		}
		names = append(names, n)
	}
	return strings.Join(names, ", ")
}

func required(m acpconn.AuthMethod) []string {
	var out []string
	for _, v := range m.Vars {
		if !v.Optional {
			out = append(out, v.Name)
		}
	}
	return out
}
