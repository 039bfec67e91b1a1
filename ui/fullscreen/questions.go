package fullscreen

import (
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/session"
)

// changes renders what the core changed: notes, new questions, questions
// closed without the user, and a prompt to retry or send.
func (m *Model) changes(ch session.Changes) tea.Cmd {
	for _, n := range ch.Notes {
		if m.hostSays && n.Level == session.Decision {
			continue // the source says it once the host has it
		}
		switch n.Level {
		case session.Info, session.Decision:
			m.tr.info(n.Text)
		default:
			m.tr.notice(n.Text, n.Level == session.Error)
		}
	}
	var cmds []tea.Cmd
	for _, cl := range ch.Closed {
		md := m.queue.byQuestion(cl.Q)
		if md == nil {
			continue
		}
		cmds = append(cmds, m.remove(md))
		text := "a question from the " + m.peer + " was closed: " + sanitize.Line(cl.Reason)
		if d := md.draft(); d != "" {
			text += "\nwhat you had entered:" + d
		}
		m.tr.notice(text, false)
	}
	for _, q := range ch.Asked {
		cmds = append(cmds, m.ask(q))
	}
	for _, q := range ch.Prepare {
		cmds = append(cmds, prepare(m.core, q))
	}
	for _, p := range ch.After {
		cmds = append(cmds, afterHooks(m.core, p))
	}
	cmds = append(cmds, keepRules(m.core, ch.Keep)...)
	if ch.Send != "" {
		cmds = append(cmds, m.src.retry(ch.Send, true))
	} else if ch.Retry != "" {
		cmds = append(cmds, m.src.retry(ch.Retry, false))
	}
	return tea.Batch(cmds...)
}

// ask puts a new question of the source's in the queue, and tells the user
// if they are elsewhere.
func (m *Model) ask(q *question.Question) tea.Cmd {
	return tea.Batch(m.askedWhileAway(q), m.notifyCmd(q), m.queueQuestion(q))
}

func (m *Model) queueQuestion(q *question.Question) tea.Cmd {
	switch q.Kind {
	case question.Permission:
		p := newPermModal(q, m.name, m.th)
		p.md, p.root = m.md, m.tr.root
		p.here, _ = m.core.AllowHere(q) // "always allow here", when a rule can be kept
		return m.push(p, false)
	case question.URL:
		return m.push(newURLModal(q, m.name, m.th, m.overSSH, m.grace, m.now), false)
	}
	f := newFormModal(q, m.name, m.th, m.grace, m.now)
	if m.drafts != nil {
		f.share, f.sync, f.peers = m.drafts, m.drafts.Form(q, f.form), &m.peers
		f.focus = f.form.Focused()
	}
	return tea.Batch(m.push(f, false), f.form.Init())
}

// push adds a modal; deliberate ones (the user opened them) go in front
// and take the keys at once, the others queue and ask the arbiter. Where
// nothing else takes keys (direct), a question at the front has them at
// once.
func (m *Model) push(md modal, deliberate bool) tea.Cmd {
	if deliberate {
		m.queue.pushFront(md)
		return m.arb.Front(true)
	}
	m.queue.push(md)
	if m.queue.front() == md {
		return m.arb.Front(m.direct)
	}
	return nil
}

// remove takes a modal out of the queue; the next one asks the arbiter.
func (m *Model) remove(md modal) tea.Cmd {
	wasFront := m.queue.front() == md
	m.queue.remove(md)
	if m.queue.front() == nil {
		m.arb.Empty()
		return nil
	}
	if wasFront {
		return m.arb.Front(m.direct)
	}
	return nil
}
