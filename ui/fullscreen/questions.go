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
		if l, ok := m.src.(lister); ok && md == nil {
			l.closed(cl) // a question of the list never opened, or put back
			continue
		}
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

// ask puts a new question of the source's in the queue (or the list of a
// source that lists its questions: the inbox), and tells the user if they
// are elsewhere.
func (m *Model) ask(q *question.Question) tea.Cmd {
	if l, ok := m.src.(lister); ok {
		return tea.Batch(m.askedWhileAway(q), m.notifyCmd(q), l.listed(q))
	}
	return tea.Batch(m.askedWhileAway(q), m.notifyCmd(q), m.queueQuestion(q))
}

// lister is a source whose questions wait in a list of its own until the
// user opens one (the inbox), instead of coming to the front as they are
// asked.
type lister interface {
	// listed takes a question the core asks.
	listed(q *question.Question) tea.Cmd
	// closed is a question of the list that closed while not on screen.
	closed(cl session.Closed)
	// who names who asks q: the agent, its session and directory.
	who(q *question.Question) string
}

// whoOf names who asks q in its dialog: the source's name, or where one
// screen holds the questions of many sessions, that session's.
func (m *Model) whoOf(q *question.Question) string {
	if l, ok := m.src.(lister); ok {
		if who := l.who(q); who != "" {
			return who
		}
	}
	return m.name
}

func (m *Model) queueQuestion(q *question.Question) tea.Cmd {
	md, init := m.questionModal(q)
	return tea.Batch(m.push(md, false), init)
}

// questionModal is q's dialog, and the command that starts it.
func (m *Model) questionModal(q *question.Question) (modal, tea.Cmd) {
	who := m.whoOf(q)
	switch q.Kind {
	case question.Permission:
		p := newPermModal(q, who, m.th)
		p.md, p.root = m.md, m.tr.root
		p.here, _ = m.core.AllowHere(q) // "always allow here", when a rule can be kept
		return p, nil
	case question.URL:
		return newURLModal(q, who, m.th, m.overSSH, m.grace, m.now), nil
	}
	f := newFormModal(q, who, m.th, m.grace, m.now)
	sh, peers := m.drafts, &m.peers
	if d, ok := m.src.(interface {
		sharerOf(*question.Question) sharer
	}); ok {
		sh, peers = d.sharerOf(q), nil // the inbox: the session that asked q (a peer always)
	}
	if sh != nil {
		f.share, f.sync, f.peers = sh, sh.Form(q, f.form), peers
		f.focus = f.form.Focused()
	}
	return f, f.form.Init()
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
