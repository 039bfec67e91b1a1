// Package forms turns an elicitation's restricted JSON schema into a typed,
// validated, keyboard-only form, and the user's answers into the content an
// agent receives.
//
//	s, err := forms.ParseSchema(params.RequestedSchema) // a *SchemaError: answer -32602
//	if err != nil {
//		return err
//	}
//	m := forms.NewModel(s, forms.Header{Agent: "Claude", Message: msg, Index: 1, Total: 1}, forms.Options{Theme: th})
//	cmd := m.Init() // then m.Update(msg) for every message while the form is in front
//	if out, done := m.Done(); done {
//		reply(out) // out.Action is Accept, Decline or Cancel; out.Content is typed
//	}
//
// The pure core (ParseSchema, Field.ParseInput, Field.Validate,
// Schema.Check, Schema.FromAnswers and one Check function per constraint)
// has no terminal dependency. Model (a child for the root bubbletea model),
// RunAccessible (line prompts) and RunCLI (`elicit form`) present it.
package forms
