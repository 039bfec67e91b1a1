package config

import (
	"fmt"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// MCPEntry is one [mcp_servers.NAME] table: an MCP server every agent is
// asked to connect to in each session (ACP's mcpServers), as Zed passes
// its configured servers to every ACP agent. It has a command (stdio) or a
// url (http, or sse with type = "sse"), never both.
type MCPEntry struct {
	// Type is "stdio", "http" or "sse"; empty means stdio for a command
	// and http for a url.
	Type string `toml:"type"`
	// Command and Args start a stdio server; Command is looked up on PATH
	// (ACP sends the absolute path).
	Command string   `toml:"command"`
	Args    []string `toml:"args"`
	// Env is set for a stdio server as written: no secret belongs here
	// (it is sent in the session request, and shows in the --log trace).
	Env map[string]string `toml:"env"`
	// EnvFrom sets a stdio server's variables from elicit's environment:
	// variable to set -> variable holding its value (a token, say).
	EnvFrom map[string]string `toml:"env_from"`
	// URL reaches an http or sse server.
	URL string `toml:"url"`
	// HeadersFrom are the HTTP headers for an http or sse server, each
	// from an environment variable: header -> variable holding its value.
	// There is no literal header: its value is a secret more often than not.
	HeadersFrom map[string]string `toml:"headers_from"`
}

// The MCP server transports of ACP.
const (
	MCPStdio = "stdio"
	MCPHTTP  = "http"
	MCPSSE   = "sse"
)

// Transport is the entry's transport, its type or the default.
func (e MCPEntry) Transport() string {
	switch {
	case e.Type != "":
		return e.Type
	case e.URL != "":
		return MCPHTTP
	}
	return MCPStdio
}

// MCPServer is a configured MCP server resolved for a session request:
// its variables read, its command found. Problem, when set, says why it
// cannot be passed (a variable unset, a command not installed); it is left
// out then, and the session says so.
type MCPServer struct {
	Name, Transport string
	Command         string // stdio: the absolute path
	Args            []string
	Env             []NameValue
	URL             string
	Headers         []NameValue
	Problem         string
}

// NameValue is a variable or a header. Secret marks a value read from the
// environment (EnvFrom, HeadersFrom): it is kept out of traces.
type NameValue struct {
	Name, Value string
	Secret      bool
}

// MCPServers resolves the [mcp_servers] tables, sorted by name. getenv
// reads a variable (os.LookupEnv, or the agent's environment); path is the
// PATH a stdio command is looked up in ("" for elicit's own).
func (c *Config) MCPServers(getenv func(string) (string, bool), path string) []MCPServer {
	names := make([]string, 0, len(c.MCPEntries))
	for n := range c.MCPEntries {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]MCPServer, 0, len(names))
	for _, n := range names {
		out = append(out, c.MCPEntries[n].resolve(n, getenv, path))
	}
	return out
}

func (e MCPEntry) resolve(name string, getenv func(string) (string, bool), path string) MCPServer {
	s := MCPServer{Name: name, Transport: e.Transport(), URL: e.URL, Args: slices.Clone(e.Args)}
	if s.Args == nil {
		s.Args = []string{}
	}
	from := func(what string, m map[string]string) []NameValue {
		out := []NameValue{}
		for _, k := range sortedKeys(m) {
			v, ok := getenv(m[k])
			if !ok && s.Problem == "" {
				s.Problem = fmt.Sprintf("%s %s: $%s is not set", what, k, m[k])
			}
			out = append(out, NameValue{Name: k, Value: v, Secret: true})
		}
		return out
	}
	if s.Transport != MCPStdio {
		s.Headers = from("header", e.HeadersFrom)
		return s
	}
	for _, k := range sortedKeys(e.Env) {
		s.Env = append(s.Env, NameValue{Name: k, Value: e.Env[k]})
	}
	s.Env = append(s.Env, from("variable", e.EnvFrom)...)
	if s.Env == nil {
		s.Env = []NameValue{}
	}
	cmd, err := lookPathIn(expandHome(e.Command), path)
	if err != nil {
		if s.Problem == "" {
			s.Problem = fmt.Sprintf("%s is not installed (not on PATH)", e.Command)
		}
	} else {
		s.Command = cmd
	}
	return s
}

// lookPathIn finds a command as exec.LookPath does, on path ("" for
// elicit's PATH), and makes it absolute.
func lookPathIn(cmd, path string) (string, error) {
	if path == "" || strings.Contains(cmd, "/") {
		p, err := exec.LookPath(cmd)
		if err != nil {
			return "", err
		}
		return filepath.Abs(p)
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // a relative PATH entry is the working directory's, not a place to trust
		}
		if p, err := exec.LookPath(filepath.Join(dir, cmd)); err == nil {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// headerName is an HTTP header's name (RFC 9110's token).
var headerName = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

// checkMCP says what is wrong with an [mcp_servers.NAME] entry, or "".
// A value that should name a variable is never repeated: it may be the
// secret itself.
func checkMCP(e MCPEntry) string {
	switch t := e.Transport(); {
	case e.Command != "" && e.URL != "":
		return "has both a command and a url: give one"
	case e.Command == "" && e.URL == "":
		return "has no command (stdio) or url (http, sse)"
	case t != MCPStdio && t != MCPHTTP && t != MCPSSE:
		return fmt.Sprintf("type %q is not \"stdio\", \"http\" or \"sse\"", t)
	case t == MCPStdio && e.Command == "":
		return "type \"stdio\" needs a command"
	case t != MCPStdio && e.URL == "":
		return fmt.Sprintf("type %q needs a url", t)
	case t == MCPStdio && len(e.HeadersFrom) > 0:
		return "headers_from: a stdio server takes no headers"
	case t != MCPStdio && (len(e.Args) > 0 || len(e.Env) > 0 || len(e.EnvFrom) > 0):
		return "args, env and env_from are for a stdio server (a command)"
	}
	if e.URL != "" {
		u, err := url.Parse(e.URL)
		switch {
		case err != nil:
			return "url: " + err.Error()
		case u.Scheme != "https" && u.Scheme != "http" || u.Host == "":
			return "url: want an http or https URL"
		case u.User != nil:
			return "url: no credentials in the URL; put them in a variable and name it in headers_from"
		}
	}
	for k, v := range e.HeadersFrom {
		if !headerName.MatchString(k) {
			return fmt.Sprintf("headers_from: %q is not a header name", k)
		}
		if !ValidEnvName(v) {
			return fmt.Sprintf("headers_from.%s is not a variable's name: it names the variable that holds the value, never the value", k)
		}
	}
	for k, v := range e.EnvFrom {
		if !ValidEnvName(k) {
			return fmt.Sprintf("env_from: %q is not a variable name", k)
		}
		if !ValidEnvName(v) {
			return fmt.Sprintf("env_from.%s is not a variable's name: it names the variable that holds the value, never the value", k)
		}
		if _, both := e.Env[k]; both {
			return fmt.Sprintf("%s is in both env and env_from", k)
		}
	}
	for k := range e.Env {
		if !ValidEnvName(k) {
			return fmt.Sprintf("env: %q is not a variable name", k)
		}
	}
	return ""
}
