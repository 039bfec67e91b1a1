package fullscreen

import (
	"encoding/json"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/theme"
)

// typing handles a key where the user is: the lists, the arguments form,
// the JSON editor.
func (m *mcpPanel) typing(k tea.KeyPressMsg) tea.Cmd {
	switch m.pane {
	case paneArgs:
		cmd := m.args.update(k)
		if out, done := m.args.form.Done(); done {
			return tea.Batch(cmd, m.argsDone(out))
		}
		return cmd
	case paneEditor:
		switch {
		case key.Matches(k, mcpKeys.Check):
			if args, ok := m.editor.check(); ok {
				return m.run(m.editor.tool, args)
			}
			return nil
		case k.String() == "esc":
			m.editorDrafts[m.editor.tool.Name] = m.editor.ta.Value()
			m.pane, m.editor = paneList, nil
			return nil
		}
		return m.editor.update(k)
	}
	return m.listKey(k)
}

// stop cancels the running call: the SDK sends notifications/cancelled.
func (m *mcpPanel) stop() (tea.Cmd, bool) {
	if m.call == nil || m.call.stopping {
		return nil, false
	}
	m.call.stopping = true
	m.call.cancel()
	return nil, true
}

// back leaves the arguments for the lists.
func (m *mcpPanel) back(func(string) bool) (tea.Cmd, bool) {
	if m.pane == paneList {
		return nil, false
	}
	m.pane, m.args, m.editor = paneList, nil, nil
	return nil, true
}

func (m *mcpPanel) count(t tab) int {
	switch t {
	case tabTools:
		return len(m.tools)
	case tabPrompts:
		return len(m.prompts)
	}
	return len(m.res)
}

// listKey moves in the lists and opens a tool.
func (m *mcpPanel) listKey(k tea.KeyPressMsg) tea.Cmd {
	n := m.count(m.tab)
	switch k.String() {
	case "up", "k":
		if n > 0 {
			m.sel[m.tab] = (m.sel[m.tab] + n - 1) % n
		}
	case "down", "j":
		if n > 0 {
			m.sel[m.tab] = (m.sel[m.tab] + 1) % n
		}
	case "home":
		m.sel[m.tab] = 0
	case "end":
		m.sel[m.tab] = max(n-1, 0)
	case "left", "shift+tab":
		m.tab = (m.tab + 2) % 3
	case "right", "tab":
		m.tab = (m.tab + 1) % 3
	case "esc":
		cmd, _ := m.stop()
		return cmd
	case "enter":
		if m.tab != tabTools || n == 0 {
			return nil
		}
		return m.openTool(m.tools[m.sel[tabTools]])
	}
	return nil
}

// openTool shows the tool's arguments: a form when its schema is in the
// restricted subset, the JSON editor otherwise; a tool without arguments
// runs at once.
func (m *mcpPanel) openTool(t mcpTool) tea.Cmd {
	if len(propertyOrder(t.InputSchema)) == 0 {
		return m.run(t, nil)
	}
	a, err := newArgsForm(t, m.th)
	if err != nil {
		m.editor = newJSONEditor(t, sanitize.Summary(err.Error(), 200), m.editorDrafts[t.Name], m.th)
		m.pane = paneEditor
		return nil
	}
	m.args, m.pane = a, paneArgs
	return a.form.Init()
}

// argsDone runs the tool with the form's answers, or goes back.
func (m *mcpPanel) argsDone(out question.Outcome) tea.Cmd {
	t := m.args.tool
	m.pane, m.args = paneList, nil
	if out.Action != question.Accept {
		return nil
	}
	content := out.Content
	if content == nil {
		content = map[string]any{}
	}
	args, err := json.Marshal(content)
	if err != nil {
		m.tr.notice("the arguments could not be sent: "+err.Error(), true)
		return nil
	}
	return m.run(t, args)
}

// run starts a call from the list; while another runs, it waits its turn
// (one call at a time: a -32042 retry knows which call it retries).
func (m *mcpPanel) run(t mcpTool, args []byte) tea.Cmd {
	m.pane, m.args, m.editor = paneList, nil, nil
	return m.startOrQueue(callSpec{tool: t, args: args})
}

// startOrQueue starts spec, or has it wait for the call that runs.
func (m *mcpPanel) startOrQueue(spec callSpec) tea.Cmd {
	t := spec.tool
	if m.call != nil {
		if m.next != nil {
			m.tr.notice(m.next.tool.Display()+" no longer waits: "+t.Display()+" runs next instead", false)
		}
		m.next = &spec
		m.tr.info(t.Display() + " runs once " + m.call.spec.tool.Display() + " is done")
		return nil
	}
	return m.startCall(spec)
}

// retryCallAct runs a call again once the URL flows it needed are done.
type retryCallAct struct{ spec callSpec }

// decided acts on what the panel's dialog (the retry) decided.
func (m *mcpPanel) decided(a action) tea.Cmd {
	if r, ok := a.(retryCallAct); ok {
		again := r.spec
		again.retry = true
		return m.startOrQueue(again)
	}
	return nil
}

// newRetryCallModal offers a call again once the URL flows it needed are
// complete; "run it again" is selected: it only re-runs what the user ran
// already.
func newRetryCallModal(spec callSpec, th *theme.Theme) *retryModal {
	return &retryModal{choiceModal{
		title: "Retry the call?", th: th, asks: "to retry a call",
		body:    "The URL flows " + spec.tool.Display() + " needed are complete.",
		choices: []choice{{"", "run it again", retryCallAct{spec}}, {"", "not now", closeAct{}}},
	}}
}
