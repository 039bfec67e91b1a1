// Package forms turns a restricted JSON schema (the requestedSchema of an
// ACP or MCP elicitation) into a validated, keyboard-only form with a typed
// outcome, a question.Outcome: Accept with content typed as the schema
// says, Decline, or Cancel.
// It imports no protocol package, so any ACP or MCP client can use it.
//
//	s, h, err := forms.ParseRequest(params) // elicitation/create params, or a bare schema
//	if err != nil {
//		return err // a *schema.SchemaError names the property: answer -32602
//	}
//	out, err := forms.Run(ctx, s, h, forms.RunOptions{}) // the form on stderr, keys from stdin
//	reply(out) // json.Marshal(out): {"action":"accept","content":{...}}, the elicitation's result
//
// Three ways to use a form:
//   - standalone, as a program of its own: Run (or, for screen readers,
//     RunOptions.Accessible: line-based prompts);
//   - inside your own bubbletea program: NewModel is a plain child model;
//     call Init once, Update with every message while the form is in
//     front, View to draw it, and Done after each Update;
//   - without a person: Fill answers from a map of values, then defaults.
//
// Values are checked as the user leaves a field and all at once before
// sending (package schema holds the rules); the user reviews exactly what
// will be sent, and Decline or Cancel ask first when something was typed.
package forms
