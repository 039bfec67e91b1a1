package fullscreen

import (
	"github.com/elicit-dev/elicit/internal/dialog"
	"github.com/elicit-dev/elicit/theme"
)

// frame is the full screen's face of dialog.Frame, the one scrolling
// frame of every dialog: the head is the title and who asks (always in
// view), then the body scrolls between it and the fixed foot (a dialog's
// choices) and key line. The dialogs fill in its fields before each view.
type frame struct {
	title, who string
	body       []string // may hold our own styling; agent text sanitized
	foot       []string // fixed rows above the key line (choices)
	keys       string
	th         *theme.Theme

	f *dialog.Frame
}

func newFrame(th *theme.Theme) *frame { return &frame{th: th, f: dialog.New(th)} }

func (f *frame) up()                 { f.f.Up() }
func (f *frame) down()               { f.f.Down() }
func (f *frame) pageUp()             { f.f.PageUp() }
func (f *frame) pageDown()           { f.f.PageDown() }
func (f *frame) home()               { f.f.Home() }
func (f *frame) end()                { f.f.End() }
func (f *frame) ensureVisible(i int) { f.f.EnsureVisible(i) }

// scrollKey handles the scrolling keys; false for any other key.
func (f *frame) scrollKey(k string) bool { return f.f.ScrollKey(k) }

// view draws the frame in width×height cells, border included.
func (f *frame) view(width, height int) string {
	th := f.th
	head := th.ModalTitle.Render(f.title)
	if f.who != "" {
		head += th.Muted.Render(" · " + f.who)
	}
	f.f.Head, f.f.Pin = []string{head}, 1
	f.f.Body, f.f.Foot = f.body, f.foot
	f.f.Keys = th.KeyHelp.Render(f.keys)
	return f.f.View(width, height)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
