// Package acpconn runs an ACP agent as a subprocess and speaks JSON-RPC to
// it over stdio, or reaches a remote agent over ACP's Streamable HTTP &
// WebSocket transport (Config.Remote): it turns everything the agent sends
// into plain Go events (sanitized for the screen) and carries the user's
// answers back. Both transports sit under the same reader, caps and
// handler (see link in transport.go).
//
//	c, err := acpconn.Start(ctx, acpconn.Config{Argv: []string{"my-agent"}})
//	go func() { for ev := range c.Events() { /* hand to the UI */ } }()
//	_ = c.NewSession(ctx)
//	resp, err := c.Prompt(ctx, "hello")
//
//	// a remote agent instead: Config{Remote: &acpconn.Remote{URL: "https://host/acp", Token: tok}}
//
// It dispatches inbound requests itself on acp.NewConnection rather than
// using the SDK's client dispatcher, because that dispatcher drops the
// elicitation scope (sessionId, toolCallId, requestId) and accepts requests
// the protocol forbids (see DESIGN.md section 3).
package acpconn
