package teaout

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

type rawView struct{ content, title string }

func (r rawView) Init() tea.Cmd                       { return nil }
func (r rawView) Update(tea.Msg) (tea.Model, tea.Cmd) { return r, nil }
func (r rawView) View() tea.View {
	v := tea.NewView(r.content)
	v.WindowTitle = r.title
	return v
}

// TestViewFiltered checks that what a view carries besides text and SGR
// never reaches the renderer, which would pass it to the terminal as is.
func TestViewFiltered(t *testing.T) {
	m := Model(rawView{content: "a\x1b]52;c;eA==\x07\x1b[2Jb\x1b[1mc\x1b[m\u202ed", title: "t\x1b]0;x\x07\u202e"})
	m, _ = m.Update(nil) // still wrapped after an update
	v := m.View()
	if want := "ab\x1b[1mc\x1b[md"; v.Content != want {
		t.Errorf("content %q, want %q", v.Content, want)
	}
	if want := "t<U+202E>"; v.WindowTitle != want {
		t.Errorf("title %q, want %q", v.WindowTitle, want)
	}
}
