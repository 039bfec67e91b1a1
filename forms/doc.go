// Package forms presents an elicitation's parsed schema (package schema) as
// a keyboard-only form: a child model for the root bubbletea model, line
// prompts for the accessible session, and `elicit form`.
//
//	s, err := schema.ParseSchema(params.RequestedSchema) // a *schema.SchemaError: answer -32602
//	if err != nil {
//		return err
//	}
//	m := forms.NewModel(s, forms.Header{Agent: "Claude", Message: msg, Index: 1, Total: 1}, forms.Options{Theme: th})
//	cmd := m.Init() // then m.Update(msg) for every message while the form is in front
//	if out, done := m.Done(); done {
//		reply(out) // out.Action is Accept, Decline or Cancel; out.Content is typed
//	}
package forms
