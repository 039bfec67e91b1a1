package fullscreen

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/ui/internal/formsync"
)

// source is the panel of what the full screen talks to: an ACP agent
// (agentPanel: the prompt, sign-in, sessions, settings, reconnects), an
// MCP server (mcpPanel: its tools, their arguments and calls) or an AHP
// host (hostPanel: another terminal's questions). The root hands every
// event of the source's stream to the session core and draws the rest;
// it calls these for what is the source's own.
type source interface {
	// connect starts the source (Init).
	connect() tea.Cmd
	// handle takes a message of the source's own (its events, its
	// commands' results); false when the message is not its.
	handle(msg tea.Msg) (tea.Cmd, bool)
	// global takes the source's own keys while no question waits (ctrl+r
	// restarts the agent); false for the others.
	global(k tea.KeyPressMsg) (tea.Cmd, bool)
	// typing handles a key that goes where the user types (the prompt,
	// the tool list and arguments), also while a question waits docked.
	typing(k tea.KeyPressMsg) tea.Cmd
	// rest takes a message nobody else did (a paste, a widget's own).
	rest(msg tea.Msg) tea.Cmd
	// panel draws what is under the transcript when no question has the
	// keys: the prompt, the tool list; room is the most rows it may take.
	panel(width, room int) string
	// header is a line above the transcript ("" for none).
	header(width int) string
	// status is the source's part of the status bar.
	status() []string
	// busy says the spinner turns (the source starts, a turn runs).
	busy() bool
	// stop is Ctrl+C's first say: it cancels what runs (a turn, a call);
	// false when nothing runs.
	stop() (tea.Cmd, bool)
	// back is Ctrl+C's next say, with no question waiting: it empties
	// the prompt (on a second press) or leaves the arguments; false when
	// there is nothing to go back from, and Ctrl+C quits.
	back(second func(what string) bool) (tea.Cmd, bool)
	// retry sends again (auto) or offers to send again what needed URL
	// flows: the core's Changes.Send and Retry.
	retry(what string, auto bool) tea.Cmd
	// decided acts on what one of the source's own dialogs decided.
	decided(a action) tea.Cmd
	// help is the source's keys: the status bar's few, and the keys
	// screen's groups.
	help() (short []key.Binding, full [][]key.Binding)
	// shutdown ends the source and quits the program.
	shutdown() tea.Cmd
	// closeSource ends the source if it still runs (Close).
	closeSource()
}

// sharer carries a form's drafts to and from other clients: the AHP
// host's (elicit serve: *share.Share) or the host attached to (elicit
// attach).
type sharer interface {
	// Form shares q's form: nil when q is not shared.
	Form(q *question.Question, f *forms.Model) *formsync.Sync
	// Send publishes this terminal's drafts.
	Send(chs []ahp.InputAnswerChanged)
}
