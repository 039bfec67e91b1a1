package acpconn

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/testkit"
)

func init() {
	// mcp-record declares the MCP transports MCP_RECORD_CAPS lists, takes
	// sessions up with session/load and session/resume, and at a prompt
	// says back the mcpServers of every session request it was sent, one
	// line each: "METHOD JSON".
	noHandshake["mcp-record"] = true
	scripts["mcp-record"] = func(a *scripted) {
		caps := map[string]any{}
		for _, t := range strings.Fields(os.Getenv("MCP_RECORD_CAPS")) {
			caps[t] = true
		}
		a.reply(a.recvMethod("initialize"), map[string]any{"protocolVersion": 1, "authMethods": []any{},
			"agentCapabilities": map[string]any{"loadSession": true, "mcpCapabilities": caps,
				"sessionCapabilities": map[string]any{"resume": map[string]any{}}},
			"agentInfo": map[string]any{"name": "mcp-record", "version": "1"}})
		var got []string
		for {
			m := a.recv()
			p, _ := m["params"].(map[string]any)
			switch method, _ := m["method"].(string); method {
			case "session/new", "session/load", "session/resume":
				b, _ := json.Marshal(p["mcpServers"])
				got = append(got, method+" "+string(b))
				a.reply(m, map[string]any{"sessionId": "s1"})
			case "session/prompt":
				a.say(strings.Join(got, "\n"))
				a.endTurn(m, "end_turn")
			}
		}
	}
}

// The configured MCP servers go in every session request (new, load,
// resume) in ACP's shapes, each only in a transport the agent declares;
// the ones left out are said once, with why; secrets stay out of the
// trace (issue 35, item 12).
func TestMCPServersPassed(t *testing.T) {
	servers := []MCPServer{
		{Name: "everything", Transport: MCPStdio, Command: "/usr/bin/mcp-everything", Args: []string{"--stdio"},
			Env: []MCPValue{{Name: "DEBUG", Value: "1"}, {Name: "TOKEN", Value: "tok-sekrit-1", Secret: true}}},
		{Name: "docs", Transport: MCPHTTP, URL: "https://docs.example/mcp", Headers: []MCPValue{{Name: "Authorization", Value: "Bearer sekrit-2", Secret: true}}},
		{Name: "events", Transport: MCPSSE, URL: "https://events.example/sse", Headers: []MCPValue{}},
		{Name: "locked", Transport: MCPHTTP, URL: "https://locked.example/mcp", Problem: "header Authorization: $LOCKED_AUTH is not set"},
		{Name: "bare", Transport: MCPStdio, Command: "/usr/bin/bare"},
	}
	var trace testkit.Buffer
	c := start(t, "mcp-record", Config{MCPServers: servers, Env: []string{"MCP_RECORD_CAPS=http"}, Log: &trace})
	n, _ := until[Notice](t, c)
	want := `MCP servers not given to the agent: events (sse): the agent takes no MCP server over SSE (its mcpCapabilities.sse is not set); locked (http): header Authorization: $LOCKED_AUTH is not set`
	if n.Text != want {
		t.Errorf("notice %q\nwant   %q", n.Text, want)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, replay := range []bool{true, false} { // load, then resume
		if _, _, err := c.OpenSession(ctx, "s1", replay); err != nil {
			t.Fatal(err)
		}
	}
	c.StartPrompt("which servers?")
	_, evs := until[TurnEnded](t, c)
	for _, ev := range evs {
		if n, ok := ev.(Notice); ok {
			t.Errorf("said again: %q", n.Text)
		}
	}
	wire := `[{"args":["--stdio"],"command":"/usr/bin/mcp-everything","env":[{"name":"DEBUG","value":"1"},{"name":"TOKEN","value":"tok-sekrit-1"}],"name":"everything"},` +
		`{"headers":[{"name":"Authorization","value":"Bearer sekrit-2"}],"name":"docs","type":"http","url":"https://docs.example/mcp"},` +
		`{"args":[],"command":"/usr/bin/bare","env":[],"name":"bare"}]`
	if got, want := agentText(evs), "session/new "+wire+"\nsession/load "+wire+"\nsession/resume "+wire; got != want {
		t.Errorf("the agent was given\n%s\nwant\n%s", got, want)
	}
	states := []MCPServerState{
		{Name: "everything", Transport: MCPStdio, Passed: true},
		{Name: "docs", Transport: MCPHTTP, Passed: true},
		{Name: "events", Transport: MCPSSE, Why: "the agent takes no MCP server over SSE (its mcpCapabilities.sse is not set)"},
		{Name: "locked", Transport: MCPHTTP, Why: "header Authorization: $LOCKED_AUTH is not set"},
		{Name: "bare", Transport: MCPStdio, Passed: true},
	}
	if got := c.MCPServers(); !reflect.DeepEqual(got, states) {
		t.Errorf("states %+v", got)
	}
	c.Close()
	if s := trace.String(); strings.Contains(s, "sekrit") || !strings.Contains(s, `"mcpServers":[{`) {
		t.Errorf("the trace holds a secret, or no servers:\n%s", s)
	}
}

// With no servers configured, session/new says mcpServers: [] (never
// null) and nothing is said.
func TestNoMCPServers(t *testing.T) {
	c := start(t, "mcp-record", Config{Env: []string{"MCP_RECORD_CAPS=http sse"}})
	c.StartPrompt("which servers?")
	_, evs := until[TurnEnded](t, c)
	if got := agentText(evs); got != "session/new []" {
		t.Errorf("the agent was given %s", got)
	}
	for _, ev := range evs {
		if _, ok := ev.(Notice); ok {
			t.Errorf("notice %+v", ev)
		}
	}
}
