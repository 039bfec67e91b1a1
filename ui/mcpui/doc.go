// Package mcpui is `elicit mcp`'s full screen: one root bubbletea model
// that connects to an MCP server, lists its tools, prompts and resources,
// fills a tool's arguments in a form built from its inputSchema (a JSON
// editor, checked against the schema, where the schema is richer than a
// form), runs it with a progress bar and cancellation, and shows the
// result. The server's elicitations go through the session core like an
// ACP agent's, and appear as the same forms and URL consent screens,
// under the same input arbiter (ui/internal/focus).
//
//	m := mcpui.New(mcpui.Options{Server: mcpconn.Config{Argv: argv}})
//	_, err := tea.NewProgram(m).Run()
//	m.Close()
package mcpui
