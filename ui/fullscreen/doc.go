// Package fullscreen is elicit's full-screen front end, its one root
// bubbletea model whatever it talks to: the transcript, the modal queue
// (permissions, forms, URL consent) under the input arbiter, the pending
// URL flows and the status bar, over the session core; and the panel of
// its source, a child it calls: an ACP agent's (New: the prompt, sign-in,
// sessions, settings), an MCP server's (NewMCP: the tool lists, a tool's
// arguments, the call running) or an AHP host's (NewAttach).
//
//	m := fullscreen.New(fullscreen.Options{Agent: acpconn.Config{Argv: argv}})
//	_, err := tea.NewProgram(m).Run()
//	m.Close()
package fullscreen
