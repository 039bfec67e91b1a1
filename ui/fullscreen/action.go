package fullscreen

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
)

// action is what a dialog decided, as a value (crush's HandleMsg returns
// one): its update returns it once, and the root acts on it (act). The
// root acts on the actions every screen shares; the source's panel acts on
// its own (sign in, restart the agent, retry a call).
type action any

// The actions the root acts on itself.
type (
	// answerAct answers the source's question q with out, through the core.
	answerAct struct {
		q   *question.Question
		out question.Outcome
	}
	// allowHereAct answers the permission q with the agent's allow_once
	// option and keeps the narrowest rule for the call in the project's
	// file ("always allow here"), through the core.
	allowHereAct struct{ q *question.Question }
	// openAct hands a consented URL to the browser; the source hears
	// accept once that worked.
	openAct struct{ md *urlModal }
	// openedAct says the user opened the URL themselves.
	openedAct struct{ md *urlModal }
	// closeAct closes a dialog that decided nothing (Esc on the keys).
	closeAct struct{}
	// quitAct ends the program.
	quitAct struct{}
	// replaceAct writes an export over the file the user agreed to
	// replace; keepAct keeps it.
	replaceAct struct {
		path string
		text *exportText
	}
	keepAct struct{ path string }
)

// toModal hands msg to the modal md; once it decides, it leaves the queue
// and what it decided is acted on.
func (m *Model) toModal(md modal, msg tea.Msg) tea.Cmd {
	a, cmd := md.update(msg)
	if a == nil {
		return cmd
	}
	return tea.Batch(cmd, m.remove(md), m.act(a))
}

// act acts on what a dialog decided.
func (m *Model) act(a action) tea.Cmd {
	switch a := a.(type) {
	case answerAct:
		if a.q.Kind == question.Permission {
			m.tr.permissionAnswered(a.q.From.ToolCall, allows(a.q, a.out))
		}
		return m.changes(m.core.Answer(a.q, a.out))
	case allowHereAct:
		m.tr.permissionAnswered(a.q.From.ToolCall, true)
		return m.changes(m.core.AnswerAllowHere(a.q))
	case openAct:
		return openURL(m.opts.Opener, a.md)
	case openedAct:
		return m.opened(openedMsg{md: a.md})
	case closeAct:
		return nil
	case quitAct:
		return m.quit()
	case replaceAct:
		return exportReplace(a.path, a.text)
	case keepAct:
		m.tr.info(sanitize.Line(a.path) + " was kept; /export FILE writes to another name")
		return nil
	}
	return m.src.decided(a)
}

// allows says whether out chose an option of q that allows the call.
func allows(q *question.Question, out question.Outcome) bool {
	if out.Action != question.Accept {
		return false
	}
	for _, o := range q.Options {
		if o.ID == out.Option {
			return strings.HasPrefix(o.Kind, "allow")
		}
	}
	return false
}
