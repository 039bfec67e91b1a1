// Package acpconn starts an Agent Client Protocol agent and is its client:
// it hands the agent's questions (elicitations, permission requests) to a
// Handler you write, and serves its file and terminal requests itself,
// with elicit's protections on. The agent is a process on its stdio, or a
// remote agent reached over ACP's Streamable HTTP & WebSocket transport
// (Config.Remote); both sit under the same reader, caps and handler (see
// link in transport.go).
//
//	c, err := acpconn.Start(ctx, acpconn.Config{Argv: []string{"claude-agent-acp"}})
//	if err != nil {
//		return err
//	}
//	defer c.Close()              // ends the agent's whole process group
//	go c.Serve(ctx, myHandler{}) // Elicit, RequestPermission (and HandleEvent)
//	if _, err := c.NewSession(ctx); err != nil {
//		return err
//	}
//	end, err := c.Prompt(ctx, "summarise README.md") // end.StopReason: "end_turn", ...
//
// A form elicitation arrives parsed and checked (package question/schema: a
// request outside the restricted schema is answered -32602 before your
// Handler sees it), so forms.Run or forms.Fill can answer it; a URL
// elicitation arrives with its analysis (package question/urlcheck), for
// urlconsent.Run. See the examples.
//
// # What is on by default
//
//   - Sanitizing: every string in an Event that came from the agent has
//     been through elicit's sanitizer (no escape sequence, control or bidi
//     character reaches a screen); ids stay exact, because they go back.
//   - Confinement: fs/read_text_file and fs/write_text_file go through one
//     os.Root on Config.Dir (a path out through any symlink is refused;
//     only regular files; bounded by FileTimeout and MaxReadBytes), and
//     terminal/* commands start in it. A permission that shows a diff
//     approves exactly that diff: a later write of that file must produce
//     the approved text, and a rejected permission refuses the writes of
//     its tool call. Config.Writes decides the writes no permission
//     covered: WritesAllowed (the default), WritesRefused, or WritesAsked
//     (Config.AskWrite, or a permission question whose Write is set). Files
//     that run code later (CodeRisk: .git, .envrc, rc files) are asked
//     about even so, unless Config.AllowWrites names them. What the
//     agent's own process does without fs/* or terminal/* is outside any
//     client's control.
//   - Caps: at most MaxWaiting questions wait at once (more are answered
//     cancelled); an elicitation message over question.MaxMessageBytes or
//     a schema over question.MaxSchemaBytes is refused with -32602; a line
//     over MaxLineBytes ends the session with ErrLineTooLong; a terminal
//     keeps at most its output limit (DefaultOutputLimit); of the agent's
//     stderr, the last StderrLines lines are kept; a flood of updates
//     slows the agent down instead of growing memory (see Events).
//   - Process lifetime: the agent runs in its own process group, tracked by
//     Config.Lifecycle from the moment it runs; Close ends the group
//     (SIGTERM, then SIGKILL) and every terminal command with it.
//   - Protocol hygiene: requests for sessions this client did not create
//     are refused; Config.NoForm and Config.NoURL withhold elicitation
//     modes; CancelTurn cancels as ACP asks.
//
// Without Serve, read Events yourself: each question comes as a
// question.Asked, and Answer (the session core's Source) takes its
// question.Outcome back to the wire as it is; elicit's own front ends do
// this through their session core. acpconn imports no UI library.
//
//	// a remote agent instead: Config{Remote: &acpconn.Remote{URL: "https://host/acp", Token: tok}}
//
// It dispatches inbound requests itself on acp.NewConnection rather than
// using the SDK's client dispatcher, because that dispatcher drops the
// elicitation scope (sessionId, toolCallId, requestId) and accepts requests
// the protocol forbids (see DESIGN.md section 3).
package acpconn
