package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// [mcp_servers.NAME]: a stdio server's command is found on PATH and sent
// absolute; its env as written and env_from from the environment; an http
// and an sse server's headers from the environment only; an unset
// variable or a missing command leaves a server out, saying why.
func TestMCPServers(t *testing.T) {
	bin := t.TempDir()
	tool := filepath.Join(bin, "mcp-tool")
	if err := os.WriteFile(tool, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c, err := Parse([]byte(`
[mcp_servers.everything]
command = "mcp-tool"
args = ["--stdio"]
env = { DEBUG = "1" }
env_from = { TOKEN = "MY_TOKEN" }

[mcp_servers.docs]
url = "https://docs.example/mcp"
headers_from = { Authorization = "DOCS_AUTH" }

[mcp_servers.events]
type = "sse"
url = "http://127.0.0.1:9/sse"

[mcp_servers.gone]
command = "no-such-mcp-tool"

[mcp_servers.locked]
url = "https://locked.example/mcp"
headers_from = { Authorization = "UNSET_AUTH" }
`), "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"MY_TOKEN": "tok-123", "DOCS_AUTH": "Bearer abc"}
	getenv := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	got := c.MCPServers(getenv, bin)
	want := []MCPServer{
		{Name: "docs", Transport: MCPHTTP, URL: "https://docs.example/mcp", Args: []string{}, Headers: []NameValue{{"Authorization", "Bearer abc", true}}},
		{Name: "events", Transport: MCPSSE, URL: "http://127.0.0.1:9/sse", Args: []string{}, Headers: []NameValue{}},
		{Name: "everything", Transport: MCPStdio, Command: tool, Args: []string{"--stdio"}, Env: []NameValue{{"DEBUG", "1", false}, {"TOKEN", "tok-123", true}}},
		{Name: "gone", Transport: MCPStdio, Args: []string{}, Env: []NameValue{}, Problem: "no-such-mcp-tool is not installed (not on PATH)"},
		{Name: "locked", Transport: MCPHTTP, URL: "https://locked.example/mcp", Args: []string{}, Headers: []NameValue{{"Authorization", "", true}}, Problem: "header Authorization: $UNSET_AUTH is not set"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("servers\n got %+v\nwant %+v", got, want)
	}
}

// A bad [mcp_servers] entry is an error naming its line, and never repeats
// what may be a secret written where a variable's name belongs.
func TestMCPServerErrors(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{`command = "x"
url = "https://a.example"`, "has both a command and a url"},
		{`args = ["x"]`, "has no command (stdio) or url"},
		{`type = "ws"
url = "https://a.example"`, `type "ws" is not`},
		{`type = "sse"
command = "x"`, `type "sse" needs a url`},
		{`url = "ftp://a.example"`, "want an http or https URL"},
		{`url = "https://user:pw@a.example"`, "no credentials in the URL"},
		{`url = "https://a.example"
headers_from = { Authorization = "Bearer sekrit-token" }`, "headers_from.Authorization is not a variable's name"},
		{`url = "https://a.example"
headers_from = { "Bad Header" = "X" }`, "is not a header name"},
		{`url = "https://a.example"
args = ["x"]`, "are for a stdio server"},
		{`command = "x"
headers_from = { A = "B" }`, "a stdio server takes no headers"},
		{`command = "x"
env_from = { TOKEN = "ghp sekrit" }`, "env_from.TOKEN is not a variable's name"},
		{`command = "x"
env = { A = "1" }
env_from = { A = "B" }`, "A is in both env and env_from"},
		{`command = "x"
literal = "y"`, `unknown key "mcp_servers.s.literal"`},
	} {
		_, err := Parse([]byte("top_domains = []\n\n[mcp_servers.s]\n"+c.body+"\n"), "test.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "test.toml:") {
			t.Errorf("%q: error %v, want %q with a line", c.body, err, c.want)
			continue
		}
		if strings.Contains(err.Error(), "sekrit") {
			t.Errorf("%q: the error repeats the value: %v", c.body, err)
		}
		if !strings.HasPrefix(err.Error(), "test.toml:3:") && !strings.Contains(c.want, "unknown key") {
			t.Errorf("%q: not the table's line: %v", c.body, err)
		}
	}
}
