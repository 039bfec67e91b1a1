package acpconn

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// AuthKind says how a sign-in method works, which decides what the client
// does when the user picks it.
type AuthKind int

// The kinds of sign-in method.
const (
	// AuthAgent: the agent signs in itself when asked (authenticate).
	AuthAgent AuthKind = iota
	// AuthTerminal: the client runs Command interactively in the user's
	// terminal, then restarts the agent. Never sent to authenticate.
	AuthTerminal
	// AuthEnvVar: the client asks for Vars and restarts the agent with
	// them in its environment, then calls authenticate.
	AuthEnvVar
	// AuthAPIKey: the client asks for a key and sends it in authenticate's
	// _meta["api-key"] (gemini's form).
	AuthAPIKey
)

// String names the kind of sign-in.
func (k AuthKind) String() string {
	switch k {
	case AuthTerminal:
		return "terminal"
	case AuthEnvVar:
		return "env_var"
	case AuthAPIKey:
		return "api-key"
	}
	return "agent"
}

// AuthVar is one environment variable an env_var method needs.
type AuthVar struct {
	Name, Label string
	Optional    bool
}

// AuthMethod is a way to sign in that the agent offers. Every string is
// safe to draw.
type AuthMethod struct {
	ID, Name, Description string
	Kind                  AuthKind
	// Command is what a terminal method runs (argv), Env what it adds to
	// the environment. For a method whose description only says "run `x`
	// in the terminal", Command is read from it and Derived is true.
	// Command is built from the agent's own command line, wrapper and all
	// (see loginCommand); Guess is true when elicit cannot know it is
	// right (a wrapper that hides how the agent takes its arguments), and
	// the user should see it and may edit it before it runs.
	Command []string
	Env     map[string]string
	Derived bool
	Guess   bool
	// Vars are what an env_var method needs; Link where to get them.
	Vars []AuthVar
	Link string
}

// CommandLine is a terminal method's command as a person would type it.
func (m AuthMethod) CommandLine() string {
	parts := make([]string, len(m.Command))
	for i, a := range m.Command {
		parts[i] = shellQuote(a)
	}
	return sanitize.Line(strings.Join(parts, " "))
}

// Missing lists the env_var method's required variables that env (KEY=VALUE
// entries) does not set or sets empty.
func (m AuthMethod) Missing(env []string) []string {
	set := map[string]bool{}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && v != "" {
			set[k] = true
		}
	}
	var out []string
	for _, v := range m.Vars {
		if !v.Optional && !set[v.Name] {
			out = append(out, v.Name)
		}
	}
	return out
}

// AuthMethods lists the sign-in methods the agent offered in initialize.
func (c *Conn) AuthMethods() []AuthMethod {
	return parseAuthMethods(c.Info.AuthMethods, c.cfg.Argv)
}

// findAuthMethod returns the method with that id.
func (c *Conn) findAuthMethod(id string) (AuthMethod, bool) {
	for _, m := range c.AuthMethods() {
		if m.ID == id {
			return m, true
		}
	}
	return AuthMethod{}, false
}

// parseAuthMethods reads the methods of an initialize response for the
// agent run as argv. Besides the protocol's three types it reads the forms
// agents shipped before them: _meta["terminal-auth"] {command, args, env}
// (copilot), _meta.type "terminal" with _meta.args (qwen), _meta["api-key"]
// (gemini), and a description that says "run `cmd` in the terminal"
// (claude-code-acp, opencode).
func parseAuthMethods(methods []acp.AuthMethod, argv []string) []AuthMethod {
	var out []AuthMethod
	for _, am := range methods {
		var m AuthMethod
		var desc *string
		var meta map[string]any
		switch {
		case am.Terminal != nil:
			t := am.Terminal
			m = AuthMethod{ID: t.Id, Name: t.Name, Kind: AuthTerminal, Env: stringMap(t.Env)}
			m.Command, m.Guess = loginCommand(argv, t.Args, true)
			desc, meta = t.Description, t.Meta
		case am.EnvVar != nil:
			e := am.EnvVar
			m = AuthMethod{ID: e.Id, Name: e.Name, Kind: AuthEnvVar}
			for _, v := range e.Vars {
				av := AuthVar{Name: v.Name, Optional: v.Optional}
				if v.Label != nil {
					av.Label = sanitize.Line(*v.Label)
				}
				m.Vars = append(m.Vars, av)
			}
			if e.Link != nil {
				m.Link = sanitize.Line(*e.Link)
			}
			desc, meta = e.Description, e.Meta
		case am.Agent != nil:
			a := am.Agent
			m = AuthMethod{ID: a.Id, Name: a.Name}
			desc, meta = a.Description, a.Meta
			legacyAuth(&m, meta, argv)
		default:
			continue
		}
		if desc != nil {
			m.Description = sanitize.Line(*desc)
		}
		if m.Kind == AuthAgent {
			if tm, ok := TextMethod(m.Description, argv); ok {
				m.Kind, m.Command, m.Derived, m.Guess = AuthTerminal, tm.Command, true, tm.Guess
			}
		}
		m.Name = sanitize.Line(m.Name)
		out = append(out, m)
	}
	return out
}

// legacyAuth reads the _meta forms agents used before the protocol had
// method types.
func legacyAuth(m *AuthMethod, meta map[string]any, argv []string) {
	if ta, ok := meta["terminal-auth"].(map[string]any); ok {
		cmd, _ := ta["command"].(string)
		if cmd == "" {
			m.Command, m.Guess = loginCommand(argv, strings1(ta["args"]), false)
		} else {
			m.Command, m.Guess = namedCommand(argv, cmd, strings1(ta["args"]))
		}
		m.Kind, m.Env = AuthTerminal, stringMap(anyMap(ta["env"]))
		return
	}
	if t, _ := meta["type"].(string); t == "terminal" {
		m.Command, m.Guess = loginCommand(argv, strings1(meta["args"]), false)
		m.Kind, m.Env = AuthTerminal, stringMap(anyMap(meta["env"]))
		return
	}
	if _, ok := meta["api-key"]; ok {
		m.Kind = AuthAPIKey
	}
}

// backquoted finds `a command` in a sentence.
var backquoted = regexp.MustCompile("`([^`\n]{1,200})`")

// commandIn reads a sign-in command from a sentence that asks the user to
// run it in a terminal ("Run `opencode auth login` in the terminal",
// "Please run `auggie login` from your terminal"), run as the agent is:
// when the program it names is the agent's own, through the agent's
// command line, wrapper and all (`env HOME=/x opencode acp` gives
// `env HOME=/x opencode auth login`); otherwise the program is looked up
// next to the agent's binary first, then on PATH. Nil when the sentence
// names no command.
func commandIn(text string, argv []string) []string {
	m, _ := TextMethod(text, argv)
	return m.Command
}

// TextMethod is the terminal sign-in a sentence asks for (see commandIn):
// false when it names no command. Its Guess is set when the program it
// names is not in the agent's command line and that line has more than
// the agent's binary: elicit cannot tell what the wrapper would have done.
func TextMethod(text string, argv []string) (AuthMethod, bool) {
	low := strings.ToLower(text)
	if !strings.Contains(low, "terminal") || !strings.Contains(low, "run") {
		return AuthMethod{}, false
	}
	mt := backquoted.FindStringSubmatch(text)
	if mt == nil {
		return AuthMethod{}, false
	}
	fields := strings.Fields(mt[1])
	if len(fields) == 0 {
		return AuthMethod{}, false
	}
	m := AuthMethod{Name: "Sign in", Kind: AuthTerminal, Derived: true}
	m.Command, m.Guess = namedCommand(argv, fields[0], fields[1:])
	return m, true
}

// resolveNear finds prog in the agent binary's directory (an npm
// node_modules/.bin holds its siblings), else leaves it to PATH.
func resolveNear(prog string, argv []string) string {
	if strings.ContainsRune(prog, '/') || len(argv) == 0 {
		return prog
	}
	bin := argv[0]
	if !strings.ContainsRune(bin, '/') {
		p, err := exec.LookPath(bin)
		if err != nil {
			return prog
		}
		bin = p
	}
	cand := filepath.Join(filepath.Dir(bin), prog)
	if p, err := exec.LookPath(cand); err == nil {
		return p
	}
	return prog
}

func strings1(v any) []string {
	arr, _ := v.([]any)
	var out []string
	for _, a := range arr {
		if s, ok := a.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func anyMap(v any) map[string]any { m, _ := v.(map[string]any); return m }

func stringMap(m map[string]any) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := map[string]string{}
	for k, v := range m {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// EnvList is m's Env as KEY=VALUE entries, in key order.
func (m AuthMethod) EnvList() []string {
	keys := make([]string, 0, len(m.Env))
	for k := range m.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, k+"="+m.Env[k])
	}
	return out
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:@,+%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ErrTerminalMethod refuses authenticate for a terminal method: its
// command runs in the user's terminal instead (see AuthMethod.Command).
var ErrTerminalMethod = errors.New("this sign-in method runs a command in the terminal; it is not sent to the agent")

// Authenticate runs the agent's sign-in method id (an agent or env_var
// method; a terminal method is refused with ErrTerminalMethod).
func (c *Conn) Authenticate(ctx context.Context, id string) error {
	return c.authenticate(ctx, id, nil)
}

// AuthenticateKey runs an api-key method: the key goes in authenticate's
// _meta["api-key"], never anywhere else (the --log trace redacts it).
func (c *Conn) AuthenticateKey(ctx context.Context, id, key string) error {
	c.tracer.hide(key)
	return c.authenticate(ctx, id, map[string]any{"api-key": key})
}

func (c *Conn) authenticate(ctx context.Context, id string, meta map[string]any) error {
	if m, ok := c.findAuthMethod(id); ok && m.Kind == AuthTerminal {
		return ErrTerminalMethod
	}
	_, err := sendRequest[acp.AuthenticateResponse](c, ctx, acp.AgentMethodAuthenticate, acp.AuthenticateRequest{MethodId: id, Meta: meta})
	if err != nil {
		if IsAuthRequired(err) {
			return readable(err) // still IsAuthRequired, and worded
		}
		return c.describe("authenticate", err)
	}
	return nil
}
