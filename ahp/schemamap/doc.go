// Package schemamap maps between elicit's restricted schema (package
// question/schema) and AHP questions, both ways: an ACP elicitation's fields
// become one question each for `elicit serve`, and the questions a host
// asks become a schema that elicit's forms show for `elicit attach`.
// Answers map to content and back through the same Map.
//
//	m := schemamap.FromSchema(s)              // host: the questions to publish
//	content, err := m.Content(final.Answers)  // the answer for the agent
//
//	m, notes := schemamap.FromQuestions(req.Questions) // client: a form for them
//	a := m.Answer("name", form.Draft(), ahp.Draft)     // a field's draft to send
package schemamap
