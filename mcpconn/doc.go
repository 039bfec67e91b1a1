// Package mcpconn connects to an MCP server (a command over stdio, or a
// streamable HTTP endpoint) on the official Go SDK and hands the server's
// elicitations to the caller as questions (question.Asked), answered with
// Answer, the session core's Source. It
// declares form and URL elicitation (each can be withheld), validates what
// the SDK leaves to the client (the mode was declared, a URL mode request
// has an elicitationId and an http(s) URL, the schema is in the restricted
// subset, kept in the server's property order), tracks
// notifications/elicitation/complete, progress and cancellation, and reads
// the -32042 "URL elicitation required" error. Over HTTP it connects as
// every client of elicit does (internal/netclient): no redirect followed,
// the headers sent only to the endpoint's origin, and a message over
// 10 MiB ends the connection with that reason. It imports no UI library.
//
//	c, err := mcpconn.Connect(ctx, mcpconn.Config{Argv: []string{"my-server"}})
//	go func() {
//		for ev := range c.Events() {
//			if a, ok := ev.(question.Asked); ok {
//				c.Answer(a.Q, question.Outcome{Action: question.Cancel}) // nobody asked; a person: forms.Run, urlconsent.Run
//			}
//		}
//	}()
//	res, err := c.CallTool(ctx, mcpconn.Call{Name: "echo", Args: json.RawMessage(`{"message":"hi"}`)})
//
// Example (example_test.go) runs this against a real server.
//
// Tasks (tasks.requests.elicitation.create) are not offered by the SDK
// (v1.8.0), so they are not declared; 2026-07-28 multi-round-trip input
// requests reach the same handler as elicitation/create.
package mcpconn
