package acpconn

import (
	"fmt"
	"strings"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// The MCP server transports of ACP (McpServer's stdio, http and sse).
const (
	MCPStdio = "stdio"
	MCPHTTP  = "http"
	MCPSSE   = "sse"
)

// MCPServer is an MCP server the agent is asked to connect to in every
// session request (session/new, session/load, session/resume), as ACP's
// McpServer: a stdio one (Command, an absolute path; Args; Env), or an
// http or sse one (URL; Headers). Agents must take stdio; http and sse
// go only to an agent whose mcpCapabilities declare them.
type MCPServer struct {
	Name      string
	Transport string // MCPStdio, MCPHTTP or MCPSSE
	Command   string
	Args      []string
	Env       []MCPValue
	URL       string
	Headers   []MCPValue
	// Problem, when set, says why the server cannot be passed (a variable
	// its headers need is unset, its command is not installed): it is left
	// out, and said so like a transport the agent does not take.
	Problem string
}

// MCPValue is an environment variable or an HTTP header of an MCPServer.
// A Secret value is written as [redacted] in the --log trace.
type MCPValue struct {
	Name, Value string
	Secret      bool
}

// MCPServerState is what became of a configured MCP server with this
// agent: passed, or left out and why. Safe to draw.
type MCPServerState struct {
	Name, Transport string
	Passed          bool
	Why             string // why it was left out
}

// mcpPlan is the connection's MCP servers as the agent can take them,
// worked out once (the agent's capabilities do not change), and whether
// the left-out ones were said.
type mcpPlan struct {
	once   sync.Once
	send   []acp.McpServer
	states []MCPServerState
	said   sync.Once
}

// mcpServers is the mcpServers of a session request: every configured
// server the agent can take, never nil.
func (c *Conn) mcpServers() []acp.McpServer {
	c.planMCP()
	return c.mcp.send
}

// MCPServers says, for each configured MCP server, whether the agent was
// given it, or why not.
func (c *Conn) MCPServers() []MCPServerState {
	c.planMCP()
	return append([]MCPServerState(nil), c.mcp.states...)
}

func (c *Conn) planMCP() {
	c.mcp.once.Do(func() {
		caps := c.Info.AgentCapabilities.McpCapabilities
		c.mcp.send = []acp.McpServer{}
		for _, s := range c.cfg.MCPServers {
			st := MCPServerState{Name: sanitize.Line(s.Name), Transport: s.Transport}
			switch {
			case s.Problem != "":
				st.Why = sanitize.Line(s.Problem)
			case s.Transport == MCPHTTP && !caps.Http:
				st.Why = "the agent takes no MCP server over HTTP (its mcpCapabilities.http is not set)"
			case s.Transport == MCPSSE && !caps.Sse:
				st.Why = "the agent takes no MCP server over SSE (its mcpCapabilities.sse is not set)"
			case s.Transport != MCPStdio && s.Transport != MCPHTTP && s.Transport != MCPSSE:
				st.Why = fmt.Sprintf("unknown transport %q", sanitize.Line(s.Transport))
			default:
				st.Passed = true
				c.mcp.send = append(c.mcp.send, s.wire())
			}
			c.mcp.states = append(c.mcp.states, st)
		}
	})
}

// wire is the server as ACP's McpServer; the arrays the schema requires
// are never null.
func (s MCPServer) wire() acp.McpServer {
	switch s.Transport {
	case MCPHTTP:
		return acp.McpServer{Http: &acp.McpServerHttpInline{Name: s.Name, Type: MCPHTTP, Url: s.URL, Headers: headers(s.Headers)}}
	case MCPSSE:
		return acp.McpServer{Sse: &acp.McpServerSseInline{Name: s.Name, Type: MCPSSE, Url: s.URL, Headers: headers(s.Headers)}}
	}
	env := make([]acp.EnvVariable, 0, len(s.Env))
	for _, v := range s.Env {
		env = append(env, acp.EnvVariable{Name: v.Name, Value: v.Value})
	}
	args := s.Args
	if args == nil {
		args = []string{}
	}
	return acp.McpServer{Stdio: &acp.McpServerStdio{Name: s.Name, Command: s.Command, Args: args, Env: env}}
}

func headers(vs []MCPValue) []acp.HttpHeader {
	out := make([]acp.HttpHeader, 0, len(vs))
	for _, v := range vs {
		out = append(out, acp.HttpHeader{Name: v.Name, Value: v.Value})
	}
	return out
}

// hideMCPSecrets keeps the servers' secret values out of the trace.
func (c *Conn) hideMCPSecrets() {
	for _, s := range c.cfg.MCPServers {
		for _, v := range append(append([]MCPValue(nil), s.Env...), s.Headers...) {
			if v.Secret {
				c.tracer.hide(v.Value)
			}
		}
	}
}

// sayMCP tells, once, which configured servers the agent was not given
// and why (a Notice, once the session exists and the UI reads events).
func (c *Conn) sayMCP() {
	c.mcp.said.Do(func() {
		var out []string
		for _, st := range c.MCPServers() {
			if !st.Passed {
				out = append(out, fmt.Sprintf("%s (%s): %s", st.Name, st.Transport, st.Why))
			}
		}
		if len(out) > 0 {
			c.emit(Notice{Text: "MCP servers not given to the agent: " + strings.Join(out, "; ")})
		}
	})
}
