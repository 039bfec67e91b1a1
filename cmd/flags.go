package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/ui/headless"
)

// The help groups of the shared flags, in the order help shows them.
const (
	groupServer   = "Server" // elicit mcp's
	groupSession  = "Session"
	groupAnswers  = "Answers without a person"
	groupFiles    = "Files and logs"
	groupProtocol = "Protocol"
)

// groupOrder is the order of the groups in help; a group not listed comes
// after these, and the flags of no group last.
var groupOrder = []string{groupServer, groupSession, groupAnswers, groupFiles, groupProtocol, groupRemote}

// groupAnnotation is the pflag annotation that names a flag's help group.
const groupAnnotation = "elicit_group"

// inGroup puts the named flags of fs in a help group.
func inGroup(fs *pflag.FlagSet, group string, names ...string) {
	for _, n := range names {
		if err := fs.SetAnnotation(n, groupAnnotation, []string{group}); err != nil {
			panic(err) // a misspelt flag name is a programming error
		}
	}
}

// agentOptions are what it takes to start an ACP agent.
type agentOptions struct {
	cwd, logFile  string
	noForm, noURL bool
	startTimeout  time.Duration
	allowWrites   []string
	policies      []string      // --policy files
	remote        remoteOptions // --url and its companions, where addRemoteFlags added them (remote.go)
}

// addAgentFlags adds --cwd, --log, --no-form, --no-url and
// --start-timeout.
func addAgentFlags(cmd *cobra.Command, o *agentOptions) {
	fs := cmd.Flags()
	fs.StringVar(&o.cwd, "cwd", "", "the session's working `DIR` (default: the current one)")
	fs.StringVar(&o.logFile, "log", "", "append a full protocol trace to `FILE` (made with mode 0600; never through a symbolic link)")
	fs.BoolVar(&o.noForm, "no-form", false, "do not declare form elicitation to the agent")
	fs.BoolVar(&o.noURL, "no-url", false, "do not declare URL elicitation to the agent")
	fs.DurationVar(&o.startTimeout, "start-timeout", acpconn.DefaultStartTimeout, "the `DURATION` the agent has to answer initialize, and then session/new")
	inGroup(fs, groupSession, "cwd")
	inGroup(fs, groupFiles, "log")
	inGroup(fs, groupProtocol, "no-form", "no-url", "start-timeout")
	_ = cmd.MarkFlagDirname("cwd")
}

// addAllowWriteFlag adds --allow-write PATH, which may be repeated: to the
// commands whose agent may write files (a session, serve).
func addAllowWriteFlag(cmd *cobra.Command, o *agentOptions) {
	cmd.Flags().StringArrayVar(&o.allowWrites, "allow-write", nil, "let the agent write `PATH` (a glob or directory in the session directory) without the extra question, although it runs code later (.git, .envrc, shell rc files)")
	inGroup(cmd.Flags(), groupFiles, "allow-write")
}

// addPolicyFlag adds --policy FILE, which may be repeated: permission
// rules for the commands whose agent asks permissions (a session, serve).
func addPolicyFlag(cmd *cobra.Command, o *agentOptions) {
	cmd.Flags().StringArrayVar(&o.policies, "policy", nil, "permission rules in `FILE` (a [permissions] table: allow, ask, deny; Claude Code's syntax), after the config file's")
	inGroup(cmd.Flags(), groupFiles, "policy")
	_ = cmd.MarkFlagFilename("policy", "toml")
}

// fileOptions are the configuration file and what elicit remembers and
// records.
type fileOptions struct {
	configFile, audit  string
	noHistory, noInbox bool
	topDomains         []string
}

// addFileFlags adds --config, --audit, --no-history and --top-domains.
func addFileFlags(cmd *cobra.Command, o *fileOptions) {
	fs := cmd.Flags()
	addConfigFlag(fs, &o.configFile)
	fs.StringVar(&o.audit, "audit", "", "append every question and its answer to `FILE` (JSON lines; your own, mode 0600, not a symbolic link)")
	fs.BoolVar(&o.noHistory, "no-history", false, "neither remember nor prefill answers and sites")
	addTopDomainsFlag(cmd, &o.topDomains)
	inGroup(fs, groupFiles, "audit", "no-history")
}

// addInboxFlag adds --no-inbox, for the commands whose sessions publish
// their questions to the user's inbox.
func addInboxFlag(cmd *cobra.Command, o *fileOptions) {
	cmd.Flags().BoolVar(&o.noInbox, "no-inbox", false, "keep this session's questions out of elicit inbox (also inbox = false in the config file)")
	inGroup(cmd.Flags(), groupSession, "no-inbox")
}

// addConfigFlag adds --config FILE to fs (a command's Flags, or its
// PersistentFlags when its subcommands read the file too).
func addConfigFlag(fs *pflag.FlagSet, path *string) {
	fs.StringVar(path, "config", "", "read the configuration from `FILE` (default: $XDG_CONFIG_HOME/elicit/config.toml)")
	inGroup(fs, groupFiles, "config")
}

// addTopDomainsFlag adds --top-domains FILE, which may be repeated.
func addTopDomainsFlag(cmd *cobra.Command, files *[]string) {
	cmd.Flags().StringArrayVar(files, "top-domains", nil, "more well-known domains to protect from lookalikes, one per line in `FILE`")
	inGroup(cmd.Flags(), groupFiles, "top-domains")
}

// answerOptions answer questions when no person does.
type answerOptions struct {
	answers                 string
	acceptDefaults, approve bool
}

// addAnswerFlags adds --answers, --accept-defaults and --approve.
func addAnswerFlags(cmd *cobra.Command, o *answerOptions) {
	fs := cmd.Flags()
	addAnswersFileFlag(cmd, &o.answers)
	fs.BoolVar(&o.acceptDefaults, "accept-defaults", false, "answer forms with their defaults where --answers does not (default: cancel them)")
	fs.BoolVar(&o.approve, "approve", false, "allow the agent's tool calls and file writes (default: reject them)")
	inGroup(fs, groupAnswers, "accept-defaults", "approve")
}

// addAnswersFileFlag adds --answers FILE alone.
func addAnswersFileFlag(cmd *cobra.Command, path *string) {
	cmd.Flags().StringVar(path, "answers", "", "answer forms from a JSON `FILE` of property key to value (property names, not titles: elicit form --keys lists them), then defaults")
	inGroup(cmd.Flags(), groupAnswers, "answers")
}

// load reads the --answers file, if any.
func (o answerOptions) load() (map[string]json.RawMessage, error) {
	if o.answers == "" {
		return nil, nil
	}
	return readAnswers(o.answers)
}

// startOptions say how a session opens.
type startOptions struct {
	resume      string // --resume ID; "" with resumeSet: the most recent
	resumeSet   bool   // --resume or -c was given
	continueRun bool   // -c
	mode, model string
	apiKeyEnv   string // --api-key-env: the variable's name, never the key
}

// addStartFlags adds --resume, -c/--continue, --mode, --model and
// --api-key-env.
func addStartFlags(cmd *cobra.Command, o *startOptions) {
	fs := cmd.Flags()
	fs.StringVar(&o.resume, "resume", "", "take up the past session `ID` (alone: the most recent, as -c)")
	fs.BoolVarP(&o.continueRun, "continue", "c", false, "take up the most recent session in the directory")
	fs.StringVar(&o.mode, "mode", "", "set the session's mode at start (an `ID` or name the agent offers)")
	fs.StringVar(&o.model, "model", "", "set the session's model at start (an `ID` or name the agent offers)")
	fs.StringVar(&o.apiKeyEnv, "api-key-env", "", "when the agent asks for sign-in, send the API key held in environment variable `NAME` (give the name, never the key)")
	inGroup(fs, groupSession, "resume", "continue", "mode", "model", "api-key-env")
	noFiles := func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	for _, n := range []string{"resume", "mode", "model", "api-key-env"} {
		_ = cmd.RegisterFlagCompletionFunc(n, noFiles)
	}
}

// settle reads what Changed knows: --resume alone (rewritten to --resume=
// by resumeArgs) or -c both mean the most recent session.
func (o *startOptions) settle(fs *pflag.FlagSet) {
	o.resumeSet = fs.Changed("resume") || o.continueRun
	if o.continueRun {
		o.resume = ""
	}
}

// promptOptions are -p and its run's bound.
type promptOptions struct {
	prompt  string
	timeout time.Duration
}

// addPromptFlags adds -p/--prompt and --timeout.
func addPromptFlags(cmd *cobra.Command, o *promptOptions) {
	fs := cmd.Flags()
	fs.StringVarP(&o.prompt, "prompt", "p", "", "send one prompt `TEXT`, print the reply as plain text, exit (no terminal needed)")
	fs.DurationVar(&o.timeout, "timeout", headless.DefaultTimeout, "with -p: end the run after `DURATION` (exit status 124)")
	inGroup(fs, groupSession, "prompt", "timeout")
	_ = cmd.RegisterFlagCompletionFunc("prompt", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveNoFileComp
	})
}

// screenOptions choose and tune the front end for a person.
type screenOptions struct {
	accessible, autoRetry bool
}

// addScreenFlags adds --accessible and --auto-retry.
func addScreenFlags(cmd *cobra.Command, o *screenOptions) {
	fs := cmd.Flags()
	addAccessibleFlag(cmd, &o.accessible)
	fs.BoolVar(&o.autoRetry, "auto-retry", false, "retry a prompt once the URL flows it needed are complete, without asking")
	inGroup(fs, groupSession, "auto-retry")
}

// addAccessibleFlag adds --accessible; accessible tells its value, which
// is ACCESSIBLE's when the flag is not given.
func addAccessibleFlag(cmd *cobra.Command, v *bool) {
	cmd.Flags().BoolVar(v, "accessible", false, "ask with numbered, line by line prompts instead of the full screen (also ACCESSIBLE=1)")
	inGroup(cmd.Flags(), groupSession, "accessible")
}

// accessible is --accessible when given, else whether ACCESSIBLE is set
// (the default is not read from the environment when the flag is defined,
// so that help says the same everywhere).
func accessible(fs *pflag.FlagSet, v bool) bool {
	if fs.Changed("accessible") {
		return v
	}
	return os.Getenv("ACCESSIBLE") != ""
}

// sessionOptions are every flag of a session with an agent: the root
// command's.
type sessionOptions struct {
	agent   agentOptions
	files   fileOptions
	answers answerOptions
	start   startOptions
	prompt  promptOptions
	screen  screenOptions
}

// addSessionFlags adds every flag of a session.
func addSessionFlags(cmd *cobra.Command, o *sessionOptions) {
	addPromptFlags(cmd, &o.prompt)
	addStartFlags(cmd, &o.start)
	addScreenFlags(cmd, &o.screen)
	addAgentFlags(cmd, &o.agent)
	addAllowWriteFlag(cmd, &o.agent)
	addPolicyFlag(cmd, &o.agent)
	addRemoteFlags(cmd, &o.agent.remote)
	addAnswerFlags(cmd, &o.answers)
	addFileFlags(cmd, &o.files)
	addInboxFlag(cmd, &o.files)
}

// answersError is how a bad --answers file is reported.
func answersError(path string, err error) error {
	return fmt.Errorf("--answers %s: %w", path, err)
}
