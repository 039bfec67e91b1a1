package fullscreen

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/theme"
)

// editPermission asks for a one-line change on line 30 of a 200-line file.
func editPermission() *permModal {
	var b strings.Builder
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&b, "line %d of the file\n", i)
	}
	old := b.String()
	new := strings.Replace(old, "line 30 of", "LINE THIRTY of", 1)
	tc := &question.Tool{ID: "t1", Title: "Edit notes.txt", Kind: "edit", Locations: []string{"/r/notes.txt:30"},
		Content: []string{"diff /r/notes.txt\n- whole old file"}, Diffs: []question.Diff{{Path: "/r/notes.txt", Old: old, New: new}}}
	q := &question.Question{ID: 1, Kind: question.Permission, From: question.From{ToolCall: tc.ID, Tool: tc.Title}, Tool: tc, Options: []question.Option{
		{ID: "a", Name: "Allow once", Kind: "allow_once"}, {ID: "A", Name: "Always allow edits in this session", Kind: "allow_always"},
		{ID: "r", Name: "Reject", Kind: "reject_once"}, {ID: "R", Name: "Reject always", Kind: "reject_always"}}}
	return newPermModal(q, "Demo Agent", theme.New(true, false))
}

func TestPermissionShowsTheChangeAtEverySize(t *testing.T) {
	for _, sz := range frameSizes {
		p := editPermission()
		screen := ansi.Strip(p.view(sz[0], sz[1]))
		lines := strings.Split(screen, "\n")
		if len(lines) > sz[1] {
			t.Fatalf("%v: %d lines", sz, len(lines))
		}
		for _, want := range []string{"Permission", "Demo Agent · Edit notes.txt [edit]", "@@ -27,7 +27,7 @@", "30     - line 30 of", "30 + LINE THIRTY", "esc cancel", "Reject", "Allow once"} {
			if !strings.Contains(screen, want) {
				t.Fatalf("%v: no %q:\n%s", sz, want, screen)
			}
		}
		if strings.Contains(screen, "whole old file") {
			t.Fatalf("%v: the text summary of the diff is shown too", sz)
		}
		// e shows the whole file; the frame scrolls to its end.
		p.update(tea.KeyPressMsg{Code: 'e', Text: "e"})
		p.update(tea.KeyPressMsg{Code: tea.KeyEnd})
		screen = ansi.Strip(p.view(sz[0], sz[1]))
		if !strings.Contains(screen, "200 + line 200") && !strings.Contains(screen, "200 200   line 200") || !strings.Contains(screen, "esc cancel") || !strings.Contains(screen, "↑ ") {
			t.Fatalf("%v expanded, at the end:\n%s", sz, screen)
		}
	}
}

// TestTabNeverMovesOffReject: Tab is the key that gives a docked question
// the keys ("tab to answer"); pressed again on a permission that already
// has them, then Enter, it must not pick another option than the reject
// selected at first (it used to move down and wrap round to Allow).
func TestTabNeverMovesOffReject(t *testing.T) {
	for _, keys := range [][]tea.KeyPressMsg{
		{{Code: tea.KeyTab}, {Code: tea.KeyEnter}},
		{{Code: tea.KeyTab}, {Code: tea.KeyTab}, {Code: tea.KeyEnter}},
		{{Code: tea.KeyTab, Mod: tea.ModShift}, {Code: tea.KeyEnter}},
	} {
		p := editPermission()
		first := p.q.Options[p.cursor]
		if first.Kind != "reject_once" {
			t.Fatalf("the option selected at first is %q, want the reject", first.Name)
		}
		var a action
		for _, k := range keys {
			a, _ = p.update(k)
		}
		if ans, ok := a.(answerAct); !ok || ans.out.Option != first.ID {
			t.Errorf("%v: picked %v, want %q (the reject selected at first)", keys, a, first.ID)
		}
	}
}
