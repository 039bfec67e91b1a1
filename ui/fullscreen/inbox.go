package fullscreen

import (
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/inbox"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/urlcheck"
	"github.com/elicit-dev/elicit/session"
	"github.com/elicit-dev/elicit/ui/attach"
)

// inboxPanel is the full screen's source for `elicit inbox`: every
// session of the user's (and every --attach host), each through an
// attach.Source of its own on the client the watcher keeps to it (package
// ahp/inbox), all asking one session core. Their questions wait in a list
// (inbox_view.go) until the user opens one with Enter: then it is the
// dialog a session shows, and its answer goes back to the session that
// asked, over that session's connection. It embeds the root it belongs
// to.
type inboxPanel struct {
	*Model
	w    *inbox.Watcher
	done chan struct{} // closed by closeSource: the watch ends
	home string        // the user's home directory, shown as ~
	urls *urlcheck.Analyzer

	srcs     map[string]*attach.Source // by session key
	sessions map[string]*inbox.Session
	rows     map[*question.Question]*inboxRow // every question asked, until it is answered or closed
	parked   map[*question.Question]modal     // opened, then put back (ctrl+c): it keeps what was typed
	ids      uint64                           // the questions' ids, unique across sessions
	problems int                              // the watcher's problems already logged

	sel   *question.Question // the selected row
	selAt int                // its index, kept when it leaves
	prose time.Time          // the last text typed at the list (typeAhead)
	age   ageTimer           // redraws the ages as they change
}

// inboxRow is a question of the list: the session that asks it, and the
// source that answers it.
type inboxRow struct {
	item inbox.Item
	src  *attach.Source
}

// NewInbox returns the inbox's full screen over w, which follows the
// user's sessions; Init starts reading it. Of o's agent, only URLs is read
// (what analyzes the URLs sessions ask to open); the screen closes w when
// it ends (Close).
func NewInbox(w *inbox.Watcher, o Options) *Model {
	m := newRoot(o, "elicit", session.Policy{Peer: "session", MaxWaiting: 1 << 30})
	m.hostSays, m.name = true, "inbox"
	home, _ := os.UserHomeDir()
	p := &inboxPanel{Model: m, w: w, urls: o.Agent.URLs, done: make(chan struct{}), home: home, srcs: map[string]*attach.Source{},
		sessions: map[string]*inbox.Session{}, rows: map[*question.Question]*inboxRow{}, parked: map[*question.Question]modal{}}
	m.src = p
	m.core.SetConn(p)
	mem := o.Memory
	m.core.SetMemory(session.Memory{History: mem.History, Audit: mem.Audit, Agent: "inbox"})
	return m
}

// inboxChangedMsg says the watcher has events or problems to read.
type inboxChangedMsg struct{}

// connect starts reading the watcher: what it holds already is read at
// once.
func (p *inboxPanel) connect() tea.Cmd { return func() tea.Msg { return inboxChangedMsg{} } }

// wait waits for the watcher's next change, off the loop; it makes no
// wake-up while nothing happens.
func (p *inboxPanel) wait() tea.Cmd {
	w, done := p.w, p.done
	return func() tea.Msg {
		select {
		case <-w.Changed():
			return inboxChangedMsg{}
		case <-done:
			return nil
		}
	}
}

// handle reads the watcher's events and redraws the ages.
func (p *inboxPanel) handle(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case inboxChangedMsg:
		cmds := []tea.Cmd{p.wait()}
		ps, total := p.w.ProblemsSince(p.problems)
		p.problems = total
		for _, pr := range ps {
			p.tr.notice(pr.Error(), true)
		}
		for _, e := range p.w.Events() {
			cmds = append(cmds, p.apply(e))
		}
		return tea.Batch(append(cmds, p.age.next(p, p.list()))...), true
	case inboxAgeMsg:
		return p.age.tick(msg, p, p.list()), true
	}
	return nil, false
}

// apply hands one session's event to its source, and what that means to
// the core.
func (p *inboxPanel) apply(e inbox.Event) tea.Cmd {
	key := e.Key()
	src := p.srcs[key]
	if _, closed := e.Ev.(ahp.Closed); closed {
		return p.ended(key)
	}
	if src == nil {
		src = attach.NewSource(e.Client, attach.SourceOptions{Title: e.Session.Title, Key: key, URLs: p.urls, NextID: func() uint64 { p.ids++; return p.ids }})
		p.srcs[key], p.sessions[key] = src, e.Session
	}
	var cmds []tea.Cmd
	for _, ev := range src.Apply(e.Ev) {
		switch ev := ev.(type) {
		case question.Asked:
			req, _ := src.Request(ev.Q)
			row := &inboxRow{item: e.Session.Item(req, p.now()), src: src}
			ev.Q.From.Agent = row.item.Agent
			p.rows[ev.Q] = row
			cmds = append(cmds, p.changes(p.core.Apply(ev)))
		case question.Withdrawn:
			cmds = append(cmds, p.changes(p.core.Apply(ev)))
		case attach.Note:
			p.tr.info(p.where(e.Session) + ": " + ev.Text)
		case attach.Problem:
			p.tr.notice(p.where(e.Session)+": "+ev.Text, true)
		case attach.Refused:
			p.tr.notice(p.where(e.Session)+" refused: "+ev.Reason, true)
		case attach.Unshown:
			p.tr.notice(p.where(e.Session)+" asked "+ev.What+" ("+ev.Reason+"); cancelling it", false)
		case attach.Status:
			if e.Session.Source.Socket == "" { // a remote host's connection
				p.tr.info(p.where(e.Session) + ": " + ev.Text)
			}
		case attach.Completed, attach.Ended:
		default:
			cmds = append(cmds, p.changes(p.core.Apply(ev)))
		}
	}
	return tea.Batch(cmds...)
}

// ended closes the questions of a session that ended (or was dropped).
func (p *inboxPanel) ended(key string) tea.Cmd {
	src := p.srcs[key]
	if src == nil {
		return nil
	}
	var cmds []tea.Cmd
	for q, r := range p.rows {
		if r.src == src {
			cmds = append(cmds, p.changes(p.core.Apply(question.Withdrawn{ID: q.ID, Reason: "its session ended"})))
		}
	}
	delete(p.srcs, key)
	delete(p.sessions, key)
	closeSrc := func() tea.Msg { src.Close(); return nil } // its outbox's last sends: off the loop
	return tea.Batch(append(cmds, closeSrc)...)
}

// Answer sends the core's answer to q to the session that asked it
// (session.Source).
func (p *inboxPanel) Answer(q *question.Question, out question.Outcome) bool {
	r := p.rows[q]
	p.forget(q)
	return r != nil && r.src.Answer(q, out)
}

// forget drops q from the list.
func (p *inboxPanel) forget(q *question.Question) {
	delete(p.rows, q)
	delete(p.parked, q)
}

// sharerOf is the source that shares q's drafts: the session that asked.
func (p *inboxPanel) sharerOf(q *question.Question) sharer {
	if r := p.rows[q]; r != nil {
		return r.src
	}
	return nil
}

// listed takes a question the core asks: it waits in the list.
func (p *inboxPanel) listed(q *question.Question) tea.Cmd {
	if p.sel == nil {
		p.sel = q
	}
	return p.age.next(p, p.list())
}

// closed says that a question of the list left it unanswered here, with
// what the user had typed in it if it was put back.
func (p *inboxPanel) closed(cl session.Closed) {
	r := p.rows[cl.Q]
	if r == nil {
		return
	}
	text := p.where(r.item.Session) + ": " + questionLabel(cl.Q) + " left the inbox: " + cl.Reason
	if md := p.parked[cl.Q]; md != nil {
		if d := md.draft(); d != "" {
			text += "\nwhat you had entered:" + d
		}
	}
	p.forget(cl.Q)
	p.tr.info(text)
}

// who names who asks q: the agent, its session's title when it has
// another name, and the directory.
func (p *inboxPanel) who(q *question.Question) string {
	if r := p.rows[q]; r != nil {
		return p.asker(r.item)
	}
	return ""
}

// closeSource ends the watch, every session's source and the watcher.
func (p *inboxPanel) closeSource() {
	select {
	case <-p.done:
		return
	default:
	}
	close(p.done)
	for _, s := range p.srcs {
		s.Close()
	}
	p.w.Close()
}

func (p *inboxPanel) shutdown() tea.Cmd          { return tea.Quit }
func (p *inboxPanel) busy() bool                 { return false }
func (p *inboxPanel) retry(string, bool) tea.Cmd { return nil }
func (p *inboxPanel) decided(action) tea.Cmd     { return nil }
func (p *inboxPanel) rest(tea.Msg) tea.Cmd       { return nil }
func (p *inboxPanel) global(tea.KeyPressMsg) (tea.Cmd, bool) {
	return nil, false
}
