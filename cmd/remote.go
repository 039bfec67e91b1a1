package cmd

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/acpconn"
)

// groupRemote is the help group of the remote-agent flags.
const groupRemote = "Remote agents"

// remoteOptions are the flags of a remote agent (elicit --url URL).
type remoteOptions struct {
	url, transport, tokenEnv, ca string
	allowPlaintext               bool
	allowFS, allowTerminal       bool
}

// addRemoteFlags adds --url, --transport, --token-env, --ca,
// --allow-plaintext, --allow-fs and --allow-terminal.
func addRemoteFlags(cmd *cobra.Command, o *remoteOptions) {
	fs := cmd.Flags()
	fs.StringVar(&o.url, "url", "", "reach a remote agent at `URL` (https://host/acp, wss://host/acp) over ACP's WebSocket or HTTP+SSE transport")
	fs.StringVar(&o.transport, "transport", "", "with --url: `MODE` ws or http forces that transport (default: WebSocket, else HTTP+SSE)")
	fs.StringVar(&o.tokenEnv, "token-env", "", "with --url: send the bearer token held in the environment variable `NAME` (never the token itself)")
	fs.StringVar(&o.ca, "ca", "", "with --url: also trust the PEM certificates in `FILE` (a private CA)")
	fs.BoolVar(&o.allowPlaintext, "allow-plaintext", false, "with --url: allow http:// or ws:// to a host that is not loopback (the token too travels unencrypted)")
	fs.BoolVar(&o.allowFS, "allow-fs", false, "with --url: let the remote agent read and write files in --cwd on this machine")
	fs.BoolVar(&o.allowTerminal, "allow-terminal", false, "with --url: let the remote agent run commands on this machine")
	inGroup(fs, groupRemote, "url", "transport", "token-env", "ca", "allow-plaintext", "allow-fs", "allow-terminal")
	_ = cmd.MarkFlagFilename("ca")
	_ = cmd.RegisterFlagCompletionFunc("transport", cobra.FixedCompletions([]cobra.Completion{
		cobra.CompletionWithDesc("ws", "WebSocket"), cobra.CompletionWithDesc("http", "HTTP+SSE")}, cobra.ShellCompDirectiveNoFileComp))
}

// remoteEntry is a named agent's remote settings from the configuration.
type remoteEntry struct{ url, tokenEnv, ca, transport string }

// apply makes cfg reach a remote agent when --url (or the named agent)
// gives a URL: the flags win over the configuration. command says an
// agent command was given too, which --url excludes.
func (r remoteOptions) apply(cfg *acpconn.Config, e remoteEntry, command bool) error {
	url := firstOf(r.url, e.url)
	if url == "" {
		if r.transport != "" || r.tokenEnv != "" || r.ca != "" || r.allowPlaintext || r.allowFS || r.allowTerminal {
			return errors.New("--transport, --token-env, --ca, --allow-plaintext, --allow-fs and --allow-terminal go with --url (or a named agent with a url)")
		}
		return nil
	}
	if command {
		return errors.New("--url reaches a remote agent: give no agent command or name with it")
	}
	transport := firstOf(r.transport, e.transport)
	switch transport {
	case "", acpconn.TransportWS, acpconn.TransportHTTP:
	default:
		return fmt.Errorf("--transport %q: want ws or http", transport)
	}
	if _, err := acpconn.CheckURL(url, r.allowPlaintext); err != nil {
		return err
	}
	rem := &acpconn.Remote{URL: url, Transport: transport, CAFile: firstOf(r.ca, e.ca), AllowPlaintext: r.allowPlaintext,
		AllowFS: r.allowFS, AllowTerminal: r.allowTerminal, Jar: acpconn.NewCookieJar()}
	if name := firstOf(r.tokenEnv, e.tokenEnv); name != "" {
		rem.Token = os.Getenv(name)
		if rem.Token == "" {
			from := "--token-env " + name
			if r.tokenEnv == "" {
				from = "the agent's token_env " + name
			}
			return fmt.Errorf("%s: the variable is unset or empty", from)
		}
	}
	cfg.Remote, cfg.Argv, cfg.Env = rem, nil, nil
	return nil
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
