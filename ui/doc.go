// Package ui holds elicit's front ends over one session core: the full
// screen (ui/fullscreen, for an agent, an MCP server and an AHP host), the
// accessible line session (ui/line), the headless -p path (ui/headless),
// the AHP host they share a session through (ui/serve) and the AHP client
// elicit attach reads one with (ui/attach), each in a package of its own.
//
// What they share lives here and in ui/internal: Memory (hooks, history,
// the audit log) that each front end hands the session core.
//
//	mem := ui.Memory{Agent: "claude"} // hooks, history and audit left nil: none
//	code := headless.Run(headless.Options{Agent: acpconn.Config{Argv: argv}, Prompt: "hi", Memory: mem,
//		Stdout: os.Stdout, Stderr: os.Stderr})
//
// The front ends are elicit's own and their options follow its command
// line; a Go program that wants a form or a URL consent screen of its own
// uses packages forms and urlconsent, and one that wants an ACP client
// uses acpconn (Conn.Serve with a Handler of its own).
package ui
