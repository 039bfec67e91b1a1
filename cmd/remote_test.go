package cmd

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/acpconn"
)

func TestRemoteFlags(t *testing.T) {
	t.Setenv("AGENT_TOKEN", "tok-123")
	t.Setenv("EMPTY_TOKEN", "")
	for _, tc := range []struct {
		args    []string
		entry   remoteEntry
		command bool
		want    string // "" = remote with that URL; "-" = no remote
		err     string
	}{
		{args: nil, want: "-"},
		{args: []string{"--url", "https://a.example/acp", "--token-env", "AGENT_TOKEN"}, want: "https://a.example/acp"},
		{args: []string{"--url", "http://127.0.0.1:9/acp", "--transport", "http"}, want: "http://127.0.0.1:9/acp"},
		{entry: remoteEntry{url: "wss://b.example/acp", tokenEnv: "AGENT_TOKEN"}, want: "wss://b.example/acp"},
		{args: []string{"--url", "http://a.example/acp"}, err: "loopback"},
		{args: []string{"--url", "http://a.example/acp", "--allow-plaintext"}, want: "http://a.example/acp"},
		{args: []string{"--url", "https://a.example/acp", "--token-env", "EMPTY_TOKEN"}, err: "unset or empty"},
		{entry: remoteEntry{url: "https://a.example/acp", tokenEnv: "EMPTY_TOKEN"}, err: "the agent's token_env EMPTY_TOKEN"},
		{args: []string{"--url", "https://a.example/acp", "--transport", "grpc"}, err: "want ws or http"},
		{args: []string{"--url", "https://a.example/acp"}, command: true, err: "no agent command"},
		{args: []string{"--token-env", "AGENT_TOKEN"}, err: "go with --url"},
	} {
		var o remoteOptions
		cmd := &cobra.Command{}
		addRemoteFlags(cmd, &o)
		if err := cmd.Flags().Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		cfg := acpconn.Config{Argv: []string{"demo"}}
		err := o.apply(&cfg, tc.entry, tc.command)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: err %v, want %q", tc.args, err, tc.err)
			}
		case tc.want == "-":
			if err != nil || cfg.Remote != nil {
				t.Errorf("%v: %v %+v", tc.args, err, cfg.Remote)
			}
		case err != nil:
			t.Errorf("%v: %v", tc.args, err)
		case cfg.Remote == nil || cfg.Remote.URL != tc.want || cfg.Argv != nil:
			t.Errorf("%v: %+v", tc.args, cfg)
		case strings.Contains(strings.Join(tc.args, " ")+tc.entry.tokenEnv, "AGENT_TOKEN") && cfg.Remote.Token != "tok-123":
			t.Errorf("%v: token %q", tc.args, cfg.Remote.Token)
		}
	}
}
