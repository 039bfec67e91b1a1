package cmd

// The man page's sections that no command's help holds: they say what
// the code does (the README's exit-status table; the variables and files
// as config.DefaultPath, history.DefaultDir, urlconsent's opener and
// fullscreen's crash log read them).

// manExitStatus is the README's exit-status table.
var manExitStatus = []manEntry{
	{"0", "done (elicit form: accepted; elicit url: no warning)"},
	{"1", "failed: the agent could not start, ended the turn with an error, refused (elicit form: declined, or cancelled with no one to ask; elicit url: a warning)"},
	{"2", "usage: a flag, an argument, the config file or an --answers file elicit cannot read (elicit url: an invalid URL; elicit form: a refused schema)"},
	{"124", "-p ran longer than --timeout"},
	{"130", "interrupted (Ctrl+C, or elicit form cancelled by you with Esc or Ctrl+C); other signals are 128 + the signal's number"},
}

// manEnvironment is every variable elicit reads, and what for.
var manEnvironment = []manEntry{
	{bold("NO_COLOR"), "Set and not empty: no colour anywhere (the full screen, the line session, help and errors)."},
	{bold("ACCESSIBLE"), "Set and not empty: the line session (numbered, line by line prompts) instead of the full screen, as --accessible."},
	{bold("TERM"), "Unset, dumb or unknown: the full screen cannot be drawn, so a session runs the line session and says so (elicit mcp points at elicit mcp tools and elicit mcp call)."},
	{bold("BROWSER"), "The commands that open a URL you consented to, separated by colons and tried in turn, as xdg-open reads it: %s in an entry becomes the URL, else the URL is its last argument; run without a shell. Unset: the system's opener (xdg-open, open, start)."},
	{bold("SSH_CONNECTION") + ", " + bold("SSH_TTY"), "Either set: elicit runs over SSH, where a browser would open on the remote machine; the URL consent offers to copy the URL (OSC 52) and, in the full screen, a QR code instead."},
	{bold("XDG_CONFIG_HOME"), "Where the config file is: $XDG_CONFIG_HOME/elicit/config.toml (unset or relative: ~/.config)."},
	{bold("XDG_STATE_HOME"), "Where the history is kept: $XDG_STATE_HOME/elicit (unset or relative: ~/.local/state)."},
	{bold("XDG_CACHE_HOME"), "Where a crash log of the full screen goes: $XDG_CACHE_HOME/elicit (unset: ~/.cache; on macOS ~/Library/Caches)."},
	{bold("XDG_RUNTIME_DIR"), "Where every session publishes its waiting questions to elicit inbox: a socket in $XDG_RUNTIME_DIR/elicit (unset or relative: elicit-UID in the temporary directory), a directory that must be yours alone (mode 0700)."},
	{bold("ELICIT_AHP_TOKEN"), "elicit attach: the host's bearer token, when none of --token-file, --token-env and --token gives it."},
	{italic("NAME"), "The variable that --token-env NAME or --api-key-env NAME names (token_env or api_key_env in the config file) holds a remote agent's bearer token or an agent's API key: elicit reads them from the environment only, never from the command line or the config file, and never writes them to a --log trace."},
	{bold("ELICIT_CPUPROFILE") + ", " + bold("ELICIT_MEMPROFILE") + ", " + bold("ELICIT_TRACE"), "A FILE: write a CPU profile, an allocation profile or an execution trace of the run there (for elicit's developers)."},
}

// manFiles is every file elicit reads or keeps of its own.
var manFiles = []manEntry{
	{italic("$XDG_CONFIG_HOME/elicit/config.toml"), "The config file (--config names another): theme, notifications, history, named agents, hooks, permission rules, the MCP servers agents are given. Refused when another user owns it or others can write it; elicit config check reads it."},
	{italic("$XDG_CONFIG_HOME/elicit/projects/*.toml"), "The permission rules \"always allow here\" kept for one directory, one file a directory (beside the config file --config names). Read with the config file's checks; /permissions in a session lists and removes them."},
	{italic("$XDG_STATE_HOME/elicit/answers.json"), "The answers of accepted forms, per agent and form, that prefill the same form next time (never fields that look secret). elicit history lists and forgets them; --no-history leaves them alone."},
	{italic("$XDG_STATE_HOME/elicit/sites.json"), "The sites opened from a URL consent screen, for \"first time you open this site\" and lookalikes of your own sites."},
	{italic("$XDG_STATE_HOME/elicit/lock"), "Taken while a process writes the history, so that several sessions share it safely. The directory is made with mode 0700."},
	{italic("$XDG_STATE_HOME/elicit/web-devices.json"), "The browsers paired with the web inbox (elicit inbox devices): a SHA-256 of each one's secret, never the secret; mode 0600, refused when others can read it."},
	{italic("$XDG_CACHE_HOME/elicit/crash-*.log"), "A crash log of a full screen, named on stderr when it is written; a fatal error (a crash that leaves the terminal as it was) leaves its stacks in one too."},
}

// manExamples follow the root help's examples on the page.
const manExamples = `

# One form from a schema, its keys first (for an --answers file):
elicit form --keys schema.json
elicit form schema.json --answers answers.json

# The URL analysis of the consent screen:
elicit url --json 'https://xn--80ak6aa92e.com/login'

# An MCP server's tools, and one call without a terminal:
elicit mcp -- npx -y @modelcontextprotocol/server-everything
elicit mcp call echo --args '{"message":"hi"}' -- my-server

# The demo agent over ACP's remote transport, and a session with it:
elicit demo --serve
elicit --url http://127.0.0.1:PORT/acp --token-env DEMO_TOKEN

# Share a session's questions, and answer them from another terminal:
elicit serve -- claude-agent-acp
elicit attach ws://127.0.0.1:PORT/ --token-file FILE

# Completion for the current bash, and the man page:
source <(elicit completion bash)
elicit man | man -l -
`
