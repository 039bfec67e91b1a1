package cli

import (
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/elicit-dev/elicit/acpconn"
)

// remoteFlags are the flags of a remote agent (elicit --url URL).
type remoteFlags struct {
	url, transport, tokenEnv, ca string
	allowPlaintext               bool
	allowFS, allowTerminal       bool
}

func (r *remoteFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&r.url, "url", "", "reach a remote agent at `URL` (https://host/acp, wss://host/acp) over ACP's WebSocket or HTTP+SSE transport")
	fs.StringVar(&r.transport, "transport", "", "with --url: force `ws` or http (default: WebSocket, else HTTP+SSE)")
	fs.StringVar(&r.tokenEnv, "token-env", "", "with --url: send the bearer token held in the environment variable `NAME` (never the token itself on the command line)")
	fs.StringVar(&r.ca, "ca", "", "with --url: also trust the certificates in PEM `FILE` (a private CA)")
	fs.BoolVar(&r.allowPlaintext, "allow-plaintext", false, "with --url: allow plain http:// or ws:// to a host that is not loopback (everything, the token included, travels unencrypted)")
	fs.BoolVar(&r.allowFS, "allow-fs", false, "with --url: let the remote agent read and write files in --cwd on this machine (fs/*)")
	fs.BoolVar(&r.allowTerminal, "allow-terminal", false, "with --url: let the remote agent run commands on this machine (terminal/*)")
}

// remoteEntry is a named agent's remote settings from the configuration.
type remoteEntry struct{ url, tokenEnv, ca, transport string }

// apply makes cfg reach a remote agent when --url (or the named agent)
// gives a URL: the flags win over the configuration. command says an
// agent command was given too, which --url excludes.
func (r remoteFlags) apply(cfg *acpconn.Config, e remoteEntry, command bool) error {
	url := firstOf(r.url, e.url)
	if url == "" {
		if r.transport != "" || r.tokenEnv != "" || r.ca != "" || r.allowPlaintext || r.allowFS || r.allowTerminal {
			return errors.New("--transport, --token-env, --ca, --allow-plaintext, --allow-fs and --allow-terminal go with --url (or a named agent with a url)")
		}
		return nil
	}
	if command {
		return errors.New("--url reaches a remote agent: give no agent command with it")
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
	cfg.Remote, cfg.Argv = rem, nil
	return nil
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
