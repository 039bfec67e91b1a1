package acpconn

import (
	"path/filepath"
	"strings"
)

// A terminal sign-in runs "the agent program the client already has
// configured, with the args and env the method supplies" (ACP's terminal
// authentication): the agent's whole command line, wrapper and all (`env
// HOME=/x qwen --acp`, `asuser.sh qwen --acp`, `node .../dist/index.js`,
// `npx pkg`, `bunx`, `uvx`, `docker run ...`, `sudo -u`), never only its
// first word, which for a wrapper is the wrapper.

// acpFlags are the flags agents document as their ACP mode (qwen-code,
// gemini-cli, copilot, auggie: `--acp`, formerly `--experimental-acp`). A
// sign-in's arguments take the flag's place: `qwen --acp` signs in as
// `qwen --auth-type=openai`, which runs qwen's own terminal UI; with the
// flag kept, it would start in ACP mode again.
var acpFlags = map[string]bool{"--acp": true, "--experimental-acp": true}

// loginCommand is the agent's command line with a sign-in method's args:
// in place of its ACP flag when it has one; else after it, as the protocol
// says for its terminal methods (typed: sure), and as the legacy _meta
// forms meant too, though for those, without the flag to go by, elicit
// cannot know that the command line takes them (a wrapper script that adds
// the flag itself): guess is true.
func loginCommand(argv, args []string, typed bool) (cmd []string, guess bool) {
	for i := 1; i < len(argv); i++ {
		if acpFlags[argv[i]] {
			cmd = append(append(append(cmd, argv[:i]...), args...), argv[i+1:]...)
			return cmd, false
		}
	}
	return append(append(cmd, argv...), args...), !typed
}

// namedCommand runs program with args as the agent runs: when program is
// the agent's (the same name in its command line), through the command
// line up to it, so its wrapper applies (`env HOME=/x opencode acp` and
// `opencode auth login` give `env HOME=/x opencode auth login`).
// Otherwise program is looked up next to the agent's binary, then on
// PATH; that is a guess when a wrapper runs the agent (see wrapped).
func namedCommand(argv []string, program string, args []string) (cmd []string, guess bool) {
	name := filepath.Base(program)
	for i, a := range argv {
		if filepath.Base(a) == name && !strings.HasPrefix(a, "-") {
			return append(append(cmd, argv[:i+1]...), args...), false
		}
	}
	return append([]string{resolveNear(program, argv)}, args...), wrapped(argv)
}

// wrappers are programs that run another one: launchers of packages,
// environment and user changers, containers, shells.
var wrappers = map[string]bool{
	"env": true, "sudo": true, "doas": true, "su": true, "runuser": true, "setpriv": true, "nice": true, "timeout": true,
	"npx": true, "bunx": true, "pnpx": true, "pnpm": true, "yarn": true, "bun": true, "uvx": true, "uv": true, "pipx": true,
	"docker": true, "podman": true, "nix": true, "nix-shell": true, "flatpak": true, "distrobox": true, "toolbox": true,
	"firejail": true, "bwrap": true, "ssh": true, "sh": true, "bash": true, "zsh": true, "dash": true,
}

// wrapped says whether the agent's command line starts with a wrapper (or
// a shell script), which may set up what a sign-in command outside it
// would lack: an environment, a user, a container.
func wrapped(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	name := filepath.Base(argv[0])
	return wrappers[name] || strings.HasSuffix(name, ".sh")
}
