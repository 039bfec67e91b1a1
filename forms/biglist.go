package forms

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
)

// listRows is how many options a bigList shows at once; with its status
// line it is as tall as huh's scrolled list (filterAbove + 1 lines).
const listRows = filterAbove

// listItem is one entry of a list: what it shows, the value it stands for,
// and the label in lower case for the filter.
type listItem struct {
	label, value, lower string
}

// listFilter starts a bigList's filter (huh's own filter key is turned
// off: short lists are huh's and need none).
var listFilter = key.NewBinding(key.WithKeys("/"))

// listKeys are the bindings a bigList reads, taken from huh's keymap so a
// long list answers to the same keys as a short one.
type listKeys struct {
	up, down, top, bottom, pageUp, pageDown, filter, toggle, selectAll key.Binding
}

// bigList is a select or multi-select for lists of more than filterAbove
// options: it keeps the cursor, the picks and the filter, shows the
// filter's query, and renders only the rows on screen.
//
// It is hand-written because huh's Select and MultiSelect render every
// option through lipgloss on every View and on every Options, Height and
// WithWidth call (a keystroke in a 5,000-option list took about 60 ms), and
// cannot be told to render only the visible window; bubbles' list brings
// its own layout, status bar and keys, which do not fit inside a form.
// A long label wraps under itself; only the options on screen are wrapped.
type bigList struct {
	items  []listItem
	multi  bool
	limit  int       // multi: most picks, 0 for no limit
	choice *string   // single: the entry's bound choice
	picks  *[]string // multi: the entry's bound picks
	picked []bool    // multi: per item

	shown  []int // indexes into items that match the filter
	cursor int   // index into shown
	top    int   // index into shown of the first row on screen

	rows      int // options' rows on screen; 0: listRows
	filter    textinput.Model
	filtering bool
	focused   bool
	width     int
	keys      listKeys
	styles    huh.Theme
}

// newSelectList is a single-choice list bound to choice, with the cursor on
// its current value.
func newSelectList(items []listItem, choice *string, km *huh.KeyMap, th huh.Theme) *bigList {
	k := km.Select
	l := newBigList(items, listKeys{k.Up, k.Down, k.GotoTop, k.GotoBottom, k.HalfPageUp, k.HalfPageDown, listFilter, key.NewBinding(key.WithDisabled()), key.NewBinding(key.WithDisabled())}, th)
	l.choice = choice
	for i, it := range items {
		if it.value == *choice {
			l.setCursor(i)
			break
		}
	}
	return l
}

// newMultiList is a multi-choice list bound to picks, limited to limit
// picks when limit > 0.
func newMultiList(items []listItem, picks *[]string, limit int, km *huh.KeyMap, th huh.Theme) *bigList {
	k := km.MultiSelect
	l := newBigList(items, listKeys{k.Up, k.Down, k.GotoTop, k.GotoBottom, k.HalfPageUp, k.HalfPageDown, listFilter, k.Toggle, k.SelectAll}, th)
	l.multi, l.picks, l.limit = true, picks, limit
	l.picked = make([]bool, len(items))
	for i, it := range items {
		l.picked[i] = contains(*picks, it.value)
	}
	return l
}

func newBigList(items []listItem, keys listKeys, th huh.Theme) *bigList {
	l := &bigList{items: items, keys: keys, styles: th, width: 76}
	l.shown = make([]int, len(items))
	for i := range items {
		items[i].lower = strings.ToLower(items[i].label)
		l.shown[i] = i
	}
	l.filter = textinput.New()
	l.filter.Prompt = "/"
	return l
}

// setCursor puts the cursor on shown row i and scrolls it into view.
func (l *bigList) setCursor(i int) {
	l.cursor = max(0, min(i, len(l.shown)-1))
	if l.cursor < l.top {
		l.top = l.cursor
	}
	if l.cursor >= l.top+l.n() {
		l.top = l.cursor - l.n() + 1
	}
	l.top = max(0, min(l.top, len(l.shown)-l.n()))
}

// n is how many rows the options take on screen.
func (l *bigList) n() int {
	if l.rows > 0 {
		return l.rows
	}
	return listRows
}

// setRows makes the list show n rows of options (0 or less: listRows),
// the cursor kept in view.
func (l *bigList) setRows(n int) {
	l.rows = max(n, 0)
	l.setCursor(l.cursor)
}

// hovered is the item under the cursor, or -1 when nothing matches.
func (l *bigList) hovered() int {
	if l.cursor < len(l.shown) {
		return l.shown[l.cursor]
	}
	return -1
}

// commit makes the hovered option the choice of a single-choice list.
func (l *bigList) commit() {
	if i := l.hovered(); i >= 0 && !l.multi {
		*l.choice = l.items[i].value
	}
}

// Focus focuses the list.
func (l *bigList) Focus() tea.Cmd {
	l.focused = true
	return nil
}

// Blur leaves the list; a filter being typed is kept as it is.
func (l *bigList) Blur() {
	l.focused = false
	l.endFilter()
}

// Update handles one key or paste. Arrows, PgUp/PgDn and Home/End move;
// "/" starts the filter, which takes typed text until Enter (keeps it and
// picks the hovered option) or Esc (clears it); space toggles a pick in a
// multi-choice list; Enter, Tab and Shift+Tab pick the hovered option of a
// single-choice list (the Model moves on).
func (l *bigList) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		if l.filtering {
			return l.typeFilter(msg)
		}
	case tea.KeyPressMsg:
		return l.key(msg)
	}
	return nil
}

func (l *bigList) key(msg tea.KeyPressMsg) tea.Cmd {
	k := msg.String()
	// While filtering, letters are text: j and k do not move.
	letter := l.filtering && len(k) == 1
	switch {
	case k == "enter" || k == "tab" || k == "shift+tab":
		l.endFilter()
		l.commit()
	case l.filtering && k == "esc":
		l.clearFilter()
		l.cursorToChoice()
	case key.Matches(msg, l.keys.up) && !letter:
		l.move(-1, true)
	case key.Matches(msg, l.keys.down) && !letter:
		l.move(1, true)
	case key.Matches(msg, l.keys.pageUp) && !letter:
		l.move(-l.n(), false)
	case key.Matches(msg, l.keys.pageDown) && !letter:
		l.move(l.n(), false)
	case l.filtering:
		return l.typeFilter(msg)
	case key.Matches(msg, l.keys.top):
		l.move(-len(l.shown), false)
	case key.Matches(msg, l.keys.bottom):
		l.move(len(l.shown), false)
	case key.Matches(msg, l.keys.filter):
		l.filtering = true
		return l.filter.Focus()
	case l.multi && key.Matches(msg, l.keys.toggle):
		l.toggle()
	case l.multi && l.limit <= 0 && key.Matches(msg, l.keys.selectAll):
		l.toggleAll()
	}
	return nil
}

// move moves the cursor by d rows; wrap goes round from one end to the
// other, as huh's lists do for single steps.
func (l *bigList) move(d int, wrap bool) {
	n := len(l.shown)
	if n == 0 {
		return
	}
	i := l.cursor + d
	if wrap {
		i = (i + n) % n
	}
	l.setCursor(i)
	l.commit()
}

// typeFilter passes a key or paste to the filter input and filters anew.
func (l *bigList) typeFilter(msg tea.Msg) tea.Cmd {
	before := l.filter.Value()
	var cmd tea.Cmd
	l.filter, cmd = l.filter.Update(msg)
	if l.filter.Value() != before {
		l.refilter()
	}
	return cmd
}

// refilter recomputes the shown options (a case-insensitive substring
// match, as huh does), keeping the cursor on the hovered option if it still
// shows and otherwise going to the first match.
func (l *bigList) refilter() {
	was := l.hovered()
	q := strings.ToLower(l.filter.Value())
	l.shown = l.shown[:0]
	at := 0
	for i, it := range l.items {
		if q == "" || strings.Contains(it.lower, q) {
			if i == was {
				at = len(l.shown)
			}
			l.shown = append(l.shown, i)
		}
	}
	l.top = 0
	l.setCursor(at)
}

// endFilter stops taking text; a filter that matches nothing is cleared.
func (l *bigList) endFilter() {
	l.filtering = false
	l.filter.Blur()
	if len(l.shown) == 0 {
		l.clearFilter()
	}
}

func (l *bigList) clearFilter() {
	l.filtering = false
	l.filter.Blur()
	l.filter.SetValue("")
	l.refilter()
}

// cursorToChoice puts the cursor of a single-choice list back on its
// choice, which a filter may have left.
func (l *bigList) cursorToChoice() {
	if l.multi {
		return
	}
	for r, i := range l.shown {
		if l.items[i].value == *l.choice {
			l.setCursor(r)
			return
		}
	}
}

// toggle picks or unpicks the hovered option; a new pick past the limit is
// refused.
func (l *bigList) toggle() {
	i := l.hovered()
	if i < 0 {
		return
	}
	if !l.picked[i] && l.limit > 0 && len(*l.picks) >= l.limit {
		return
	}
	l.picked[i] = !l.picked[i]
	l.syncPicks()
}

// toggleAll picks every shown option, or unpicks them all when all are
// picked already.
func (l *bigList) toggleAll() {
	all := true
	for _, i := range l.shown {
		all = all && l.picked[i]
	}
	for _, i := range l.shown {
		l.picked[i] = !all
	}
	l.syncPicks()
}

// syncPicks writes the picks to the entry in option order, as huh does.
func (l *bigList) syncPicks() {
	p := []string{}
	for i, on := range l.picked {
		if on {
			p = append(p, l.items[i].value)
		}
	}
	*l.picks = p
}
