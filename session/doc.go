// Package session is the front-end-independent core of an elicit session:
// the agent's questions and their order, the URL flows waiting for
// elicitation/complete, the legacy -32042 retry, the limit on questions
// left waiting, pausing, and every answer given without a person
// (--answers, --accept-defaults, the -p policy). The full screen, -p and
// the accessible session only render it and map keys to its actions, so a
// rule is kept once.
//
// The core holds no protocol type: it reads package question's events
// from a source's event stream (acpconn, mcpconn) as they are, and hands
// each question.Outcome back to the source (Source.Answer) unchanged.
//
//	c := session.New(conn, session.Policy{Person: true}, time.Now)
//	for ev := range conn.Events() {
//		ch := c.Apply(ev) // ch.Asked: new questions; ch.Notes: lines for the transcript
//		...
//		ch = c.Answer(q, question.Outcome{Action: question.Accept, Content: content})
//	}
//
// It imports no terminal library and no protocol package.
package session
