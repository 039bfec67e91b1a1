// Package question is elicit's one model of an agent's question and its
// answer: a Question (a form, a URL to consent to, or a permission) as a
// source parsed it off the wire, and the Outcome every layer passes on
// unchanged, from the form's review to the source's reply. Accept,
// decline and cancel are declared here and nowhere else. It imports no
// protocol and no terminal library.
//
//	q := &question.Question{ID: 7, Kind: question.Form, Message: "Deploy?", Schema: s}
//	out := question.Outcome{Action: question.Accept, Content: map[string]any{"branch": "main"}}
//	src.Answer(q, out) // the source turns it into its wire reply
//
// A source (acpconn, mcpconn) sends the events declared here (Asked,
// Withdrawn, FlowComplete, URLsNeeded, Gone, ToolTitle) in its one
// ordered event stream, and the session core reads them from it.
package question
