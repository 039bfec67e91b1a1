// Package teaout puts a bubbletea program behind elicit's output boundary:
// its view is filtered to text and SGR before the renderer sees it, and its
// output goes through a termout Screen writer. It is apart from termout so
// that packages which must not link a UI library can use termout.
//
//	p := tea.NewProgram(teaout.Model(m), tea.WithOutput(termout.NewFile(os.Stdout, termout.Screen)))
package teaout

import (
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/internal/termout"
)

// Model wraps a bubbletea model so that its view reaches the renderer as
// text and SGR only: the renderer passes any other sequence in a view
// straight to the terminal (it only parses SGR and OSC 8), so whatever an
// agent slipped into the view could otherwise clear the screen or write
// the clipboard through the Screen policy, which must let the renderer's
// own sequences through. The window title is made one safe line.
func Model(m tea.Model) tea.Model { return viewFilter{m} }

type viewFilter struct{ m tea.Model }

// Init implements tea.Model.
func (v viewFilter) Init() tea.Cmd { return v.m.Init() }

// Update implements tea.Model.
func (v viewFilter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := v.m.Update(msg)
	return viewFilter{m}, cmd
}

// View implements tea.Model: the inner view, its content and title
// filtered.
func (v viewFilter) View() tea.View {
	view := v.m.View()
	view.Content = termout.String(view.Content, termout.View)
	view.WindowTitle = sanitize.Line(view.WindowTitle)
	return view
}
