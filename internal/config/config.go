package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/elicit-dev/elicit/permissions"
)

// DefaultHookTimeout is how long a hook may run when its entry sets no
// timeout. A question blocks the agent's turn while its hooks run, so this
// is short; a hook that needs longer says so with `timeout`.
const DefaultHookTimeout = 10 * time.Second

// The bounds of typing_window: below a tenth of a second a question could
// take a key typed in a burst; above a minute one waits too long unseen.
const (
	MinTypingWindow = 100 * time.Millisecond
	MaxTypingWindow = time.Minute
)

// Config is the content of one configuration file. The zero value is an
// empty file: no agents but the built-ins, no hooks, default settings.
type Config struct {
	// AgentEntries are the [agents.NAME] tables, by name; Agent and Agents
	// resolve them with the built-ins.
	AgentEntries map[string]AgentEntry
	// Hooks run, in this order, around every question.
	Hooks []Hook
	// TopDomains are more well-known domains to protect from lookalikes.
	TopDomains []string
	// Theme is the colour theme; empty means auto.
	Theme Theme
	// Notify says when a question notifies; empty means unfocused.
	Notify Notify
	// History turns elicitation memory on or off; nil means on.
	History *bool
	// MCPEntries are the [mcp_servers.NAME] tables, by name: the MCP
	// servers every agent is asked to connect to (see MCPServers).
	MCPEntries map[string]MCPEntry
	// Rules are the [permissions] table's permission rules, for every
	// agent (RulesFor adds an agent's own).
	Rules []*permissions.Rule
	// Inbox is `inbox = false` or the [inbox] table (inbox.go).
	Inbox Inbox
	// TypingWindow is typing_window: how long after a key a question that
	// comes up waits under the prompt instead of taking the keys; 0 means
	// the default (a second).
	TypingWindow time.Duration

	// Path is the file this was read from; empty when there was none.
	Path string

	agentRules map[string][]*permissions.Rule // [agents.NAME.permissions]
}

// AgentEntry is one [agents.NAME] table.
type AgentEntry struct {
	// Command is the agent's argv; the first word is looked up on PATH.
	Command []string
	// Env is added to elicit's own environment for the agent's process.
	Env map[string]string
	// Cwd is the session's working directory; empty means elicit's own.
	Cwd string
	// URL reaches an agent that runs elsewhere (ACP over WebSocket or
	// HTTP+SSE) instead of starting Command; an entry has one or the other.
	URL string `toml:"url"`
	// TokenEnv names the environment variable that holds the bearer token
	// for URL (the token itself never goes in this file or on the command
	// line).
	TokenEnv string `toml:"token_env"`
	// CA is a PEM file of certificates to trust for URL (a private CA).
	CA string `toml:"ca"`
	// Transport forces "ws" or "http" for URL; empty prefers WebSocket.
	Transport string `toml:"transport"`
	// APIKeyEnv (api_key_env) names the environment variable that holds
	// the agent's API key: when the agent wants sign-in and offers an
	// api-key method, the key is sent in authenticate (--api-key-env
	// overrides it). The key itself never goes in the file.
	APIKeyEnv string `toml:"api_key_env"`
	// Permissions ([agents.NAME.permissions]) are permission rules for
	// this agent alone, read after the [permissions] table's.
	Permissions *Permissions `toml:"permissions"`
}

// Hook is one [[hooks]] entry.
type Hook struct {
	// Event is when it runs: Elicitation or ElicitationResult.
	Event Event
	// Command is the hook's argv (not a shell line).
	Command []string
	// Agent limits the hook to agents whose name matches; empty: all.
	Agent Glob
	// Timeout overrides DefaultHookTimeout when set.
	Timeout Duration
	// Line is where the entry starts in the file (0 when unknown).
	Line int
}

// Deadline is the hook's timeout, or DefaultHookTimeout when it sets none.
func (h Hook) Deadline() time.Duration {
	if h.Timeout > 0 {
		return time.Duration(h.Timeout)
	}
	return DefaultHookTimeout
}

// String is the hook's command as a shell would need it, for messages.
func (h Hook) String() string { return quoteArgv(h.Command) }

// Matches reports whether the hook runs for this event and agent.
func (h Hook) Matches(event Event, agent string) bool {
	return h.Event == event && h.Agent.Match(agent)
}

// HooksFor returns the hooks that run for this event and agent, in the
// order the file lists them.
func (c *Config) HooksFor(event Event, agent string) []Hook {
	var out []Hook
	for _, h := range c.Hooks {
		if h.Matches(event, agent) {
			out = append(out, h)
		}
	}
	return out
}

// Error is a configuration file that cannot be used. Line is 0 when the
// problem has no single line.
type Error struct {
	Path string
	Line int
	Msg  string
}

// Error says the file, the line and the problem, as compilers do.
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

// DefaultPath is $XDG_CONFIG_HOME/elicit/config.toml, or
// ~/.config/elicit/config.toml when XDG_CONFIG_HOME is unset or relative
// (on every system: elicit follows the XDG layout, not os.UserConfigDir).
func DefaultPath() string {
	if d := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "elicit", "config.toml")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		home = "."
	}
	return filepath.Join(home, ".config", "elicit", "config.toml")
}

// Load reads and checks the file at path. A missing file is an error that
// wraps fs.ErrNotExist (LoadDefault tolerates it); a bad file is an
// *Error, and so is a file, or a hook command file it names, that another
// user could have written (see trust.go).
func Load(path string) (*Config, error) {
	data, err := readTrusted(path)
	if err != nil {
		return nil, err
	}
	c, err := Parse(data, path)
	if err != nil {
		return nil, err
	}
	if err := c.checkHooks(); err != nil {
		return nil, err
	}
	return c, nil
}

// LoadDefault reads DefaultPath; when there is no file it returns an empty
// config whose Path is still DefaultPath.
func LoadDefault() (*Config, error) {
	p := DefaultPath()
	c, err := Load(p)
	if errors.Is(err, fs.ErrNotExist) {
		return &Config{Path: p}, nil
	}
	return c, err
}

// Parse checks a configuration held in memory; name is used in errors.
func Parse(data []byte, name string) (*Config, error) {
	var f fileConfig
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, decodeError(name, err)
	}
	c, err := f.config(name)
	if err != nil {
		return nil, err
	}
	if err := c.check(data); err != nil {
		return nil, err
	}
	if err := c.readRules(&f, data); err != nil {
		return nil, err
	}
	return c, nil
}

// decodeError turns the TOML library's errors into an *Error with a line.
func decodeError(name string, err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) && len(strict.Errors) > 0 {
		e := strict.Errors[0]
		line, _ := e.Position()
		return &Error{Path: name, Line: line, Msg: fmt.Sprintf("unknown key %q", keyString(e.Key()))}
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, _ := de.Position()
		msg := de.Error()
		if len(msg) > len("toml: ") && msg[:6] == "toml: " {
			msg = msg[6:]
		}
		return &Error{Path: name, Line: line, Msg: msg}
	}
	return &Error{Path: name, Msg: err.Error()}
}

func keyString(k toml.Key) string {
	var b bytes.Buffer
	for i, p := range k {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

// envName is what an environment variable's name may be.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ValidEnvName reports whether s can name an environment variable (as
// api_key_env and --api-key-env must).
func ValidEnvName(s string) bool { return envName.MatchString(s) }

var (
	hooksHeader = regexp.MustCompile(`^\s*\[\[\s*hooks\s*\]\]`)
	agentHeader = regexp.MustCompile(`^\s*\[\s*agents\s*\.\s*"?([^\]"]+)"?\s*\]`)
	mcpHeader   = regexp.MustCompile(`^\s*\[\s*mcp_servers\s*\.\s*"?([^\]"]+)"?\s*\]`)
)

// check finds what the decoder cannot: missing commands and unusable
// names. Lines come from the table headers (a table written inline has
// none, and its errors name the table instead).
func (c *Config) check(data []byte) error {
	hookLines, agentLines, mcpLines := headerLines(data)
	for i := range c.Hooks {
		h := &c.Hooks[i]
		if i < len(hookLines) {
			h.Line = hookLines[i]
		}
		if h.Event == "" {
			return &Error{Path: c.Path, Line: h.Line, Msg: fmt.Sprintf("[[hooks]] number %d has no event (want %q or %q)", i+1, Elicitation, ElicitationResult)}
		}
		if len(h.Command) == 0 || h.Command[0] == "" {
			return &Error{Path: c.Path, Line: h.Line, Msg: fmt.Sprintf("[[hooks]] number %d has no command", i+1)}
		}
	}
	for name, a := range c.AgentEntries {
		if !validName(name) {
			return &Error{Path: c.Path, Line: agentLines[name], Msg: fmt.Sprintf("agent name %q: use letters, digits, '-', '_' or '.'", name)}
		}
		if slices.Contains(Reserved, name) {
			return &Error{Path: c.Path, Line: agentLines[name], Msg: fmt.Sprintf("agent name %q is an elicit sub-command; pick another", name)}
		}
		hasCommand := len(a.Command) > 0 && a.Command[0] != ""
		switch {
		case hasCommand && a.URL != "":
			return &Error{Path: c.Path, Line: agentLines[name], Msg: fmt.Sprintf("[agents.%s] has both a command and a url: give one", name)}
		case a.URL != "":
			if msg := checkRemote(a); msg != "" {
				return &Error{Path: c.Path, Line: agentLines[name], Msg: fmt.Sprintf("[agents.%s] %s", name, msg)}
			}
		case !hasCommand:
			return &Error{Path: c.Path, Line: agentLines[name], Msg: fmt.Sprintf("[agents.%s] has no command (or url)", name)}
		}
		if a.APIKeyEnv != "" && !ValidEnvName(a.APIKeyEnv) {
			// The value is not repeated: it may be the key itself.
			return &Error{Path: c.Path, Line: agentLines[name], Msg: fmt.Sprintf("[agents.%s] api_key_env is not a variable's name (letters, digits, '_'): it names the variable that holds the key, never the key", name)}
		}
	}
	for name, e := range c.MCPEntries {
		if !validName(name) {
			return &Error{Path: c.Path, Line: mcpLines[name], Msg: fmt.Sprintf("MCP server name %q: use letters, digits, '-', '_' or '.'", name)}
		}
		if msg := checkMCP(e); msg != "" {
			return &Error{Path: c.Path, Line: mcpLines[name], Msg: fmt.Sprintf("[mcp_servers.%s] %s", name, msg)}
		}
	}
	return nil
}

// headerLines returns the line of each [[hooks]] header in order, and of
// each [agents.NAME] and [mcp_servers.NAME] header by name.
func headerLines(data []byte) (hooks []int, agents, mcp map[string]int) {
	agents, mcp = map[string]int{}, map[string]int{}
	for i, line := range bytes.Split(data, []byte("\n")) {
		if hooksHeader.Match(line) {
			hooks = append(hooks, i+1)
		} else if m := agentHeader.FindSubmatch(line); m != nil {
			agents[string(bytes.TrimSpace(m[1]))] = i + 1
		} else if m := mcpHeader.FindSubmatch(line); m != nil {
			mcp[string(bytes.TrimSpace(m[1]))] = i + 1
		}
	}
	return hooks, agents, mcp
}

// validName reports whether name can be typed as `elicit NAME`.
func validName(name string) bool {
	if name == "" || name[0] == '-' {
		return false
	}
	for _, r := range name {
		ok := r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !ok {
			return false
		}
	}
	return true
}
