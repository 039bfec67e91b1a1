package fullscreen

import (
	"context"
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/ui/internal/share"
)

// The full screen as one client among others (elicit serve): its questions
// are mirrored by Options.Share (the core's observer), another client's
// answer closes the question here, others' drafts fill the form without
// taking the field the user types in, and the user's own drafts go out as
// they leave a field or pause typing.

// shareMsg is something another client did.
type shareMsg struct{ v any }

// shareTypedMsg ends a typing pause in a shared form.
type shareTypedMsg struct {
	f   *formModal
	gen int
}

// shareDebounce is the typing pause after which a shared field goes out.
const shareDebounce = 300 * time.Millisecond

// The keys a shared form adds (none is a letter alone).
var (
	shareTake = key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "takes another client's draft")) // of the field being edited
	shareSkip = key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "skips the question"))           // the question the cursor is in
)

func shareNext(s *share.Share) tea.Cmd {
	if s == nil {
		return nil
	}
	return func() tea.Msg {
		v, ok := s.Next(context.Background())
		if !ok {
			return nil
		}
		return shareMsg{v: v}
	}
}

// onShare applies what another client did, and waits for the next.
func (m *Model) onShare(msg shareMsg) tea.Cmd {
	next := shareNext(m.opts.Share)
	switch v := msg.v.(type) {
	case share.Answer:
		md := m.queue.byQuestion(v.Q)
		var cmd tea.Cmd
		if md != nil {
			cmd = m.remove(md)
			text := "answered elsewhere: " + string(v.Out.Action) + " (by " + sanitize.Line(v.Who) + ")"
			if v.Inbox {
				text = "answered in the inbox: " + string(v.Out.Action)
			}
			if d := md.draft(); d != "" {
				text += "\nwhat you had entered:" + d
			}
			m.tr.info(text)
		}
		if !slices.Contains(m.core.Questions(), v.Q) {
			// Answered here a moment before, when the host said this
			// completion had won: the agent already has it (session.Arbiter).
			return tea.Batch(cmd, next)
		}
		return tea.Batch(cmd, m.changes(m.core.Answer(v.Q, v.Out)), next)
	case share.Draft:
		if f, ok := m.queue.byQuestion(v.Q).(*formModal); ok && f.sync != nil {
			f.sync.Remote(v.QuestionID, v.Answer, v.Who)
		}
	case share.Presence:
		if v.Attached {
			m.peers++
		} else {
			m.peers = max(m.peers-1, 0)
		}
		if v.Inbox {
			break // the inbox comes and goes as the user lists it: not news
		}
		if v.Attached {
			m.tr.info(sanitize.Line(v.Who) + " attached to this session")
		} else {
			m.tr.info(sanitize.Line(v.Who) + " left this session")
		}
	}
	return next
}

// shared runs after every message a shared form took: a field left goes
// out at once, typing after a pause; ctrl+t and ctrl+s are the form's.
func (f *formModal) shared(msg tea.Msg) (handled bool, cmd tea.Cmd) {
	if f.sync == nil {
		return false, nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, shareTake):
			f.sync.TakeTheirs()
			return true, nil
		case key.Matches(k, shareSkip):
			if s := f.sync.Skip(); s != nil {
				f.share.Send([]ahp.InputAnswerChanged{*s})
			}
			return true, nil
		}
	}
	return false, nil
}

// afterShared sends what a key changed.
func (f *formModal) afterShared(msg tea.Msg) tea.Cmd {
	if f.sync == nil {
		return nil
	}
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
	default:
		return nil
	}
	if _, done := f.form.Done(); done {
		return nil // the answer itself goes out through the core
	}
	if cur := f.form.Focused(); cur != f.focus {
		f.focus = cur
		f.share.Send(f.sync.Changes(false))
	}
	f.typing++
	gen := f.typing
	return tea.Tick(shareDebounce, func(time.Time) tea.Msg { return shareTypedMsg{f: f, gen: gen} })
}

func (m *Model) shareTyped(msg shareTypedMsg) {
	if f := msg.f; f.sync != nil && msg.gen == f.typing {
		f.share.Send(f.sync.Changes(true))
	}
}
