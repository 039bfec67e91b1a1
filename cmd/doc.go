// Package cmd is elicit's command line: one command tree (spf13/cobra, run
// through charm.land/fang/v2 for styled help and errors, --version and
// completions; the man page is written here, manpage.go) that reads the
// arguments, picks the front end (the full screen, the line session or
// -p) and runs it. It is the only package that parses argv: the packages
// below it take values.
//
//	elicit                         # the built-in demo agent
//	elicit claude -p "hello"       # a named agent; flags go anywhere before --
//	elicit -- my-agent --flag      # any ACP agent: everything after -- is its own
//	elicit form schema.json        # one form; prints the response JSON
//	elicit url --json URL...       # the URL analysis alone
//
// # Adding a command
//
// A subcommand is a file of its own, cmd/<name>.go, holding
//
//	func new<Name>Command(a *app) *cobra.Command
//
// and one line in the list in subcommands (root.go); nothing else in the
// tree changes. The command:
//   - sets Short, Long (when there is more to say), an Example with a few
//     lines starting with "elicit", and Args (noArgs, or needArgs with the
//     sentence that says what to give: a wrong count exits 2 and points
//     at the command's help; TestUsageErrorsOfEveryCommand has a case for
//     every command);
//   - runs with RunE: a.exit(code) returns the exit status it wants (0 ok,
//     1 failed, 2 usage, 124 timeout, 130 interrupted) after printing its own
//     message; a returned error is printed by fang and exits 1, or 2 when it
//     is a usage error (see usageError);
//   - reads a.stdin and writes text through textOut(a.stdout) and
//     textOut(a.stderr) (the output boundary, internal/termout), never
//     os.Stdin or os.Stdout directly, so tests can run it in process;
//   - takes its flags from the shared sets where they apply, so that the
//     same flag means the same thing everywhere and sits in the same help
//     group: addAgentFlags (--cwd, --log, --no-form, --no-url,
//     --start-timeout; --log through openTrace), addAllowWriteFlag
//     (--allow-write, where the agent may write files), addFileFlags
//     (--config, --audit, --no-history,
//     --top-domains), addAnswerFlags (--answers, --accept-defaults,
//     --approve), addStartFlags (--resume, -c, --mode, --model,
//     --api-key-env) and addPromptFlags (-p, --timeout); a flag of its
//     own goes in a group with inGroup, or stays in the plain "flags"
//     section;
//   - has a name that config.Reserved lists (an agent may not take it:
//     TestReservedNames checks the tree against it).
//
// # Versions
//
// A release build sets Version and Commit with -ldflags ("-X
// github.com/elicit-dev/elicit/cmd.Version=v1.2.3"); otherwise
// they come from runtime/debug.ReadBuildInfo: the module version of a `go
// install` build, the VCS revision and dirty flag of a checkout build.
package cmd
