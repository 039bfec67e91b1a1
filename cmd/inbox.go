package cmd

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/ahp/inbox"
	"github.com/elicit-dev/elicit/internal/config"
	"github.com/elicit-dev/elicit/internal/safefile"
)

const inboxExample = `
# Every question waiting in every elicit session of yours, answered with the keyboard:
elicit inbox

# The same, one a line:
elicit inbox list
elicit inbox list --json | jq -r 'select(.kind == "form") | .id'

# For a tmux status line (one small request to each session):
set -g status-right '#(elicit inbox list --count) waiting'

# Answer one from a script: from a file, with its defaults, or say no
elicit inbox answer 4242-1a2b.q1 --answers answers.json
elicit inbox answer 4242-1a2b.q2 --decline

# An elicit serve elsewhere too (through an SSH tunnel):
elicit inbox list --attach ws://127.0.0.1:41234/ --token-file tok

# Answer from your phone: a paired web page (elicit inbox web does the same)
elicit inbox --web
`

// inboxOptions are the flags of every inbox command: where to look
// besides the user's own sessions.
type inboxOptions struct {
	attach              []string
	tokenEnv, tokenFile string
	configFile          string
	cfg                 *config.Config // the config file read, once options ran
}

// newInboxCommand is `elicit inbox`: the questions every running elicit
// of the user's waits on.
func newInboxCommand(a *app) *cobra.Command {
	var o inboxOptions
	var w inboxWeb
	cmd := &cobra.Command{
		Use:   "inbox",
		Short: "The questions every elicit session of yours waits on",
		Long: "Every interactive elicit session (full screen and line session), elicit serve and elicit mcp publish the questions " +
			"they wait on to their user, on a Unix socket in a directory only you can enter ($XDG_RUNTIME_DIR/elicit), unless " +
			"run with --no-inbox or inbox = false in the config file.\n\n" +
			"With no command, elicit inbox is a full screen of them all, new ones as they are asked: a row a question (its kind, " +
			"message and how long it has waited; the agent and the session's directory). Up and Down select; Enter opens one in " +
			"the form, URL consent or permission dialog its session shows, and the answer goes back to that session; drafts sync " +
			"both ways, as with elicit attach. Ctrl+C puts an open question back in the list, and quits at the list; F1 lists " +
			"every key. Letters at the list do nothing, and an Enter within typing opens the question docked (Tab answers it).\n\n" +
			"elicit inbox list shows them in a table, elicit inbox answer answers forms and URL flows from a script " +
			"(permissions need a person). With --web the inbox is a web page for your phone (elicit inbox web; elicit inbox " +
			"pair and devices pair and revoke browsers).\n\n" +
			"--attach URL adds an AHP host elsewhere (an elicit serve reached through an SSH tunnel), with the token from " +
			"--token-file or --token-env; the config file's [inbox] attach list adds more.",
		Example: inboxExample,
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if name := webFlagWithoutWeb(cmd, &w); name != "" {
				return usagef("--%s goes with --web (or elicit inbox web)", name)
			}
			if w.on {
				return a.runInboxWeb(&o, w)
			}
			io, err := o.options()
			if err != nil {
				return err
			}
			return a.exit(a.inboxScreen(io, o.cfg))
		},
	}
	pf := cmd.PersistentFlags()
	pf.StringArrayVar(&o.attach, "attach", nil, "an AHP host's `URL` whose questions to show too (repeatable)")
	pf.StringVar(&o.tokenEnv, "token-env", "", "the --attach hosts' token is in the environment variable `NAME`")
	pf.StringVar(&o.tokenFile, "token-file", "", "the --attach hosts' token is in `FILE` (yours alone)")
	addConfigFlag(pf, &o.configFile)
	cmd.Flags().BoolVar(&w.on, "web", false, "serve the inbox as a web page for a phone (elicit inbox web)")
	addInboxWebFlags(cmd.Flags(), &w)
	cmd.AddCommand(newInboxListCommand(a, &o), newInboxAnswerCommand(a, &o), newInboxWebCommand(a, &o), newInboxPairCommand(a),
		newInboxDevicesCommand(a))
	return cmd
}

// options are where the inbox looks: the user's sessions, the --attach
// hosts, then the config file's.
func (o *inboxOptions) options() (inbox.Options, error) {
	var io inbox.Options
	if len(o.attach) > 0 {
		tok, err := readToken(o.tokenEnv, o.tokenFile)
		if err != nil {
			return io, usagef("%v", err)
		}
		for _, u := range o.attach {
			io.Attach = append(io.Attach, inbox.Remote{URL: u, Token: tok})
		}
	} else if o.tokenEnv != "" || o.tokenFile != "" {
		return io, usagef("--token-env and --token-file go with --attach URL")
	}
	file, _, err := loadConfig(o.configFile)
	if err != nil {
		return io, usagef("%v", err)
	}
	o.cfg = file
	for _, h := range file.Inbox.Attach {
		tok, err := readToken(h.TokenEnv, h.TokenFile)
		if err != nil {
			return io, fmt.Errorf("[inbox] attach %s: %w", h.URL, err)
		}
		io.Attach = append(io.Attach, inbox.Remote{URL: h.URL, Token: tok})
	}
	return io, nil
}

// readToken reads a bearer token from the variable env or the file (which
// must be the user's alone, as elicit serve's token file is); neither:
// $ELICIT_AHP_TOKEN, which may be unset.
func readToken(env, file string) (string, error) {
	switch {
	case env != "":
		t := os.Getenv(env)
		if t == "" {
			return "", fmt.Errorf("--token-env %s: the variable is not set", env)
		}
		return t, nil
	case file != "":
		b, err := safefile.ReadTrusted(file, 4096, safefile.Token)
		if err != nil {
			return "", fmt.Errorf("--token-file: %w", err)
		}
		return strings.TrimSpace(string(b)), nil
	}
	return os.Getenv("ELICIT_AHP_TOKEN"), nil
}
