package fullscreen

import (
	"fmt"
	"regexp"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/dialog"
	"github.com/elicit-dev/elicit/internal/diffview"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/theme"
	"github.com/elicit-dev/elicit/ui/internal/say"
)

// permModal asks the user to allow a tool call. A number key or ↑/↓ moves
// to an option and Enter chooses it; no key grants on its own. The first
// reject option is selected at first, so a stray Enter grants nothing. Esc
// answers "cancelled". The call's edits show as diffs (e: the whole file)
// in the dialog frame, which scrolls (pgup/pgdn/home/end) while the
// options and keys stay in view. After the agent's options comes elicit's
// own "always allow here" when a rule can be kept for the call (here):
// choosing it decides allowHereAct.
type permModal struct {
	q            *question.Question
	agent        string
	th           *theme.Theme
	md           *markdown // renders tool content; nil: plain lines
	root         string    // the session directory, for relative locations
	here         string    // the rule "always allow here" keeps ("": not offered)
	cursor       int
	out          question.Outcome // what it answered, once it did
	index, total int

	fr       *frame
	placed   bool // the first change was brought into view
	expanded bool
	diffs    []string // the rendered diffs, for diffsKey
	diffsKey [2]int   // width and expanded of diffs
}

func newPermModal(q *question.Question, agent string, th *theme.Theme) *permModal {
	p := &permModal{q: q, agent: agent, th: th, fr: newFrame(th), diffsKey: [2]int{-1, -1}}
	for i, o := range q.Options {
		if strings.HasPrefix(o.Kind, "reject") {
			p.cursor = i
			break
		}
	}
	return p
}

func (p *permModal) question() *question.Question { return p.q }
func (p *permModal) draft() string                { return "" }
func (p *permModal) setPosition(i, n int)         { p.index, p.total = i, n }
func (p *permModal) keys() []key.Binding          { return p.bindings(false) }

// choices is how many rows can be chosen: the agent's options, and
// "always allow here" when offered.
func (p *permModal) choices() int {
	if p.here != "" {
		return len(p.q.Options) + 1
	}
	return len(p.q.Options)
}

func (p *permModal) update(msg tea.Msg) (action, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	opts, n := p.q.Options, p.choices()
	if !ok {
		return nil, nil
	}
	switch s := k.String(); {
	case key.Matches(k, permCancel):
		p.out = question.Outcome{Action: question.Cancel}
		return answerAct{p.q, p.out}, nil
	case key.Matches(k, permExpand) && len(p.q.Tool.Diffs) > 0:
		p.expanded = !p.expanded
		p.fr.home()
	case key.Matches(k, dialog.Scroll):
		p.fr.scrollKey(s)
	case n == 0:
	case s == "up": // not Tab: it is the key that takes a docked question, so a second press must not move off the option selected at first
		p.cursor = (p.cursor + n - 1) % n
	case s == "down":
		p.cursor = (p.cursor + 1) % n
	case key.Matches(k, permChoose) && p.cursor == len(opts):
		return allowHereAct{p.q}, nil // the core answers allow_once and keeps the rule
	case key.Matches(k, permChoose):
		p.out = question.Outcome{Action: question.Accept, Option: opts[p.cursor].ID}
		return answerAct{p.q, p.out}, nil
	case key.Matches(k, p.numbers()):
		p.cursor = int(s[0] - '1')
	}
	return nil, nil
}

// The permission dialog's keys (see bindings).
var (
	permSelect = key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("1-9 or ↑/↓", "select"))
	permChoose = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose"))
	permExpand = key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "whole file"))
	permCancel = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))
)

// numbers is the choices' number keys ("always allow here" included), 1
// to 9 at most.
func (p *permModal) numbers() key.Binding {
	var ks []string
	for i := range min(p.choices(), 9) {
		ks = append(ks, string(rune('1'+i)))
	}
	b := key.NewBinding(key.WithKeys(ks...))
	b.SetEnabled(len(ks) > 0)
	return b
}

// bindings are the dialog's keys, as data: an option's number, ↑/↓,
// Enter, e for a diff, the frame's scroll keys and Esc; short, the key
// line for a narrow dialog.
func (p *permModal) bindings(short bool) []key.Binding {
	sel, expand := permSelect, permExpand
	expand.SetEnabled(len(p.q.Tool.Diffs) > 0)
	switch {
	case short && p.expanded:
		expand.SetHelp("e", "fold")
	case short:
		expand.SetHelp("e", "expand")
	case p.expanded:
		expand.SetHelp("e", "changes only")
	}
	scroll := dialog.Scroll
	if short {
		sel.SetHelp("↑↓", "select")
		scroll.SetHelp("", "")
	}
	return []key.Binding{p.numbers(), sel, permChoose, expand, scroll, permCancel}
}

func (p *permModal) view(width, height int) string {
	th := p.th
	inner := max(width-4, 10)
	tc := p.q.Tool
	f := p.fr
	// Who asks and for what stay in the frame's head, always in view.
	f.title = "Permission"
	f.who = p.agent + " · " + p.q.From.Tool
	if tc.Kind != "" {
		f.who += " [" + sanitize.ID(tc.Kind) + "]"
	}
	if p.total > 1 {
		f.who += fmt.Sprintf(" · %d of %d", p.index, p.total)
	}
	var body []string
	if w := p.q.Write; w != nil {
		f.title = "Write"
		f.who = p.agent + " · writes " + w.Path
		if p.total > 1 {
			f.who += fmt.Sprintf(" · %d of %d", p.index, p.total)
		}
		body = append(body, th.Muted.Render("The agent writes this file; elicit asks because "+w.Why+"."))
	}
	// The warnings stay in view with the options, however long the diff.
	risks := p.risks(inner)
	for _, l := range tc.Locations {
		if !diffPath(tc.Diffs, l) {
			body = append(body, th.Muted.Render("↳ "+say.RelPath(p.root, l)))
		}
	}
	diffs := p.renderDiffs(inner)
	if !p.placed && len(diffs) > 0 {
		// On a short screen the first change comes into view by itself.
		p.placed = true
		f.ensureVisible(len(body) + firstChange(diffs))
	}
	body = append(body, diffs...)
	for _, c := range tc.Content {
		if isDiffSummary(tc.Diffs, c) || isTerminalRef(tc.Terminals, c) {
			continue // a terminal's output shows in the transcript, once there is some
		}
		lines := strings.Split(c, "\n")
		if p.md != nil { // tool content is often markdown (```console)
			lines = p.md.render(c, inner-2)
		}
		for _, l := range lines {
			body = append(body, th.Border.Render("│ ")+l)
		}
	}
	f.body = body
	var opts []string
	for i, o := range p.q.Options {
		style := th.Base
		if strings.HasPrefix(o.Kind, "reject") {
			style = th.Danger.UnsetBold()
		} else if strings.HasPrefix(o.Kind, "allow") {
			style = th.Success
		}
		cursor := "  "
		if i == p.cursor {
			cursor = th.Selected.Render("> ")
		}
		num := "  "
		if i < 9 {
			num = th.Key.Render(fmt.Sprint(i+1)) + " "
		}
		opts = append(opts, cursor+num+style.Render(sanitize.Line(o.Name)))
	}
	if p.here != "" {
		opts = append(opts, p.hereRow(height >= 20))
	}
	if height < 20 {
		opts = pack(opts, inner) // short screen: the diff needs the rows
	}
	f.foot = append(risks, opts...)
	f.keys = p.keyLine(inner)
	return f.view(width, height)
}

// hereRow is the "always allow here" row, after the agent's options; why
// adds what it does (a short screen leaves it out: the diff needs the row).
func (p *permModal) hereRow(why bool) string {
	th, i := p.th, len(p.q.Options)
	cursor, num := "  ", "  "
	if i == p.cursor {
		cursor = th.Selected.Render("> ")
	}
	if i < 9 {
		num = th.Key.Render(fmt.Sprint(i+1)) + " "
	}
	row := cursor + num + th.Success.Render("Always allow here: "+sanitize.Line(p.here))
	if why {
		row += th.Muted.Render(" (elicit keeps the rule for this directory)")
	}
	return row
}

// risks warns of each file the question would write that runs code
// later (git's config and hooks, .envrc, rc files).
func (p *permModal) risks(width int) []string {
	var out []string
	warn := func(path, why string) {
		for _, l := range plainLines("⚠ "+path+" runs code later: "+why, width) {
			out = append(out, p.th.Danger.Render(l))
		}
	}
	if w := p.q.Write; w != nil {
		if w.Risk != "" {
			warn(w.Path, w.Risk)
		}
		return out
	}
	for _, d := range p.q.Tool.Diffs {
		rel := say.RelPath(p.root, d.Path)
		if why := acpconn.CodeRisk(rel); why != "" {
			warn(rel, why)
		}
	}
	return out
}

// pack puts short entries side by side, as many as fit in width; an entry
// wider than width keeps a row of its own (the frame wraps it).
func pack(entries []string, width int) []string {
	var rows []string
	cur := ""
	for _, e := range entries {
		switch {
		case cur == "":
			cur = e
		case ansi.StringWidth(cur)+2+ansi.StringWidth(e) <= width:
			cur += "  " + e
		default:
			rows = append(rows, cur)
			cur = e
		}
	}
	if cur != "" {
		rows = append(rows, cur)
	}
	return rows
}

// keyLine is the dialog's keys, short enough for one row where it can be.
func (p *permModal) keyLine(inner int) string {
	if long := dialog.HelpLine(p.bindings(false)); ansi.StringWidth(long) <= inner {
		return long
	}
	return dialog.HelpLine(p.bindings(true))
}

// renderDiffs draws the call's diffs for width, cached while the width and
// the expanded state stay the same.
func (p *permModal) renderDiffs(width int) []string {
	key := [2]int{width, b2i(p.expanded)}
	if key == p.diffsKey {
		return p.diffs
	}
	p.diffs = p.diffs[:0]
	for _, d := range p.q.Tool.Diffs {
		lines, _ := diffview.Render(diffview.Diff{Path: d.Path, Old: d.Old, New: d.New}, width, 0, p.expanded, p.th)
		p.diffs = append(p.diffs, lines...)
	}
	p.diffsKey = key
	return p.diffs
}

// changeRow matches a diffview row of an inserted or deleted line.
var changeRow = regexp.MustCompile(`^ *[0-9]* +[0-9]* [-+] `)

// firstChange is the row that ends the first block of changed lines
// (at most 4 rows into it), so that it and its hunk header show.
func firstChange(lines []string) int {
	first := -1
	for i, l := range lines {
		is := changeRow.MatchString(ansi.Strip(l))
		switch {
		case is && first < 0:
			first = i
		case first >= 0 && (!is || i-first >= 4):
			return i - 1
		}
	}
	return max(first, 0)
}

// diffPath reports whether a location names the file of one of the diffs
// (the diff names it already).
func diffPath(diffs []acpconn.Diff, loc string) bool {
	for _, d := range diffs {
		if loc == d.Path || strings.HasPrefix(loc, d.Path+":") {
			return true
		}
	}
	return false
}

// isDiffSummary reports whether a content entry is the text summary of
// one of the diffs, which the diff view replaces.
func isDiffSummary(diffs []acpconn.Diff, c string) bool {
	for _, d := range diffs {
		if c == "diff "+d.Path || strings.HasPrefix(c, "diff "+d.Path+"\n") {
			return true
		}
	}
	return false
}
