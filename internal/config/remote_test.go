package config

import (
	"strings"
	"testing"
)

func TestRemoteAgent(t *testing.T) {
	c, err := Parse([]byte("[agents.far]\nurl = \"wss://agents.example/acp\"\ntoken_env = \"FAR_TOKEN\"\nca = \"~/ca.pem\"\ntransport = \"ws\"\n"), "c.toml")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", "/home/u")
	a, err := c.Agent("far")
	if err != nil {
		t.Fatal(err)
	}
	if a.URL != "wss://agents.example/acp" || a.TokenEnv != "FAR_TOKEN" || a.Transport != "ws" || !a.Installed() || len(a.Command) != 0 {
		t.Errorf("agent %+v", a)
	}
	if a.CA != "/home/u/ca.pem" {
		t.Errorf("CA %q", a.CA)
	}
}

func TestRemoteAgentRefused(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"[agents.x]\nurl = \"https://a.example/acp\"\ncommand = [\"x\"]\n", "both a command and a url"},
		{"[agents.x]\nurl = \"ftp://a.example/acp\"\n", "scheme"},
		{"[agents.x]\nurl = \"https://me:pw@a.example/acp\"\n", "no credentials"},
		{"[agents.x]\nurl = \"https://a.example/acp\"\ntoken_env = \"sk-abc123-xyz\"\n", "not a variable name"},
		{"[agents.x]\nurl = \"https://a.example/acp\"\ntransport = \"grpc\"\n", "transport"},
		{"[agents.x]\n", "has no command (or url)"},
	} {
		_, err := Parse([]byte(tc.file), "c.toml")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want %q", tc.file, err, tc.want)
		}
		if err != nil && (strings.Contains(err.Error(), "pw@") || strings.Contains(err.Error(), "sk-abc123")) {
			t.Errorf("the secret shows in %v", err)
		}
	}
}
