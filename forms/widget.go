package forms

import (
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/elicit-dev/elicit/question/schema"
)

// build creates the entry's widget bound to its variables, which hold the
// default or what was answered so far. With windowed set (the full-screen
// form), a list of more than filterAbove entries gets a bigList instead of
// a huh widget: it shows the filter's query and picks with one Enter,
// which huh's untitled lists do not; accessible mode keeps huh's widgets,
// which it runs.
func (e *entry) build(km *huh.KeyMap, th huh.Theme, windowed bool) {
	f := e.f
	e.km, e.hth = km, th
	var w huh.Field
	switch {
	case f.Kind == schema.KindBoolean && (f.Required || f.HasDefault):
		w = huh.NewConfirm().Affirmative("Yes").Negative("No").Value(&e.yes)
	case f.Kind == schema.KindBoolean:
		w = huh.NewSelect[string]().Options(
			huh.NewOption("(no answer)", noAnswer),
			huh.NewOption("Yes", "true"),
			huh.NewOption("No", "false"),
		).Value(&e.choice)
	case f.Kind == schema.KindSelect:
		items := e.selectItems()
		if windowed && len(items) > filterAbove {
			e.list = newSelectList(items, &e.choice, km, th)
			return
		}
		w = selectWidget(items, &e.choice, th)
	case f.Kind == schema.KindMultiSelect:
		limit := 0
		if f.MaxItems != nil && *f.MaxItems > 0 {
			limit = *f.MaxItems
		}
		items := e.multiItems()
		if windowed && len(items) > filterAbove {
			e.list = newMultiList(items, &e.picks, limit, km, th)
			return
		}
		if e.width > 0 {
			items = multiItemsFor(items, e.width, th)
		}
		w = multiWidget(items, &e.picks, limit, th)
	case f.Kind == schema.KindList:
		w = huh.NewText().Value(&e.text).Lines(4).ShowLineNumbers(true).
			Placeholder("one a line")
	default:
		in := huh.NewInput().Value(&e.text).Placeholder(placeholder(f))
		if len(e.suggest) > 0 && !f.Secret {
			in = in.Suggestions(e.suggest) // ctrl+e completes, as fish's autosuggestions
		}
		if f.MaxLength != nil && *f.MaxLength > 0 {
			in = in.CharLimit(*f.MaxLength)
		}
		w = in
	}
	e.widget = w.WithKeyMap(km).WithTheme(th)
}

// selectWidget is huh's Select over items. The theme and the height are set
// before the options: huh renders every option on each of these calls.
func selectWidget(items []listItem, choice *string, th huh.Theme) huh.Field {
	opts := make([]huh.Option[string], len(items))
	for i, it := range items {
		opts[i] = huh.NewOption(it.label, it.value)
	}
	sel := huh.NewSelect[string]()
	sel.WithTheme(th)
	if len(opts) > filterAbove {
		sel = sel.Height(filterAbove + 1)
	}
	return sel.Options(opts...).Value(choice)
}

// multiWidget is huh's MultiSelect over items, limited to limit picks when
// limit > 0, ordered like selectWidget.
func multiWidget(items []listItem, picks *[]string, limit int, th huh.Theme) huh.Field {
	opts := make([]huh.Option[string], len(items))
	for i, it := range items {
		opts[i] = huh.NewOption(it.label, it.value).Selected(contains(*picks, it.value))
	}
	ms := huh.NewMultiSelect[string]()
	ms.WithTheme(th)
	if len(opts) > filterAbove {
		ms = ms.Height(filterAbove + 1)
	}
	ms = ms.Options(opts...).Value(picks).Filterable(false)
	if limit > 0 {
		ms = ms.Limit(limit)
	}
	return ms
}

// built reports whether the entry has its widget.
func (e *entry) built() bool { return e.widget != nil || e.list != nil }

// setWidth gives the widget its width. A short multi-select is built anew
// with its options wrapped to the width (the cursor goes back to the top);
// it reports whether it was.
func (e *entry) setWidth(w int) (rebuilt bool) {
	e.width = w
	switch {
	case e.list != nil:
		e.list.width = w
	case e.widget != nil && e.f.Kind == schema.KindMultiSelect && e.hth != nil:
		e.widget, e.height = nil, 0
		e.build(e.km, e.hth, true)
		e.widget.Init()
		e.widget = e.widget.WithWidth(w)
		return true
	case e.widget != nil:
		e.widget = e.widget.WithWidth(w)
	}
	return false
}

// focus focuses the widget.
func (e *entry) focus() tea.Cmd {
	if e.list != nil {
		return e.list.Focus()
	}
	return e.widget.Focus()
}

// blur unfocuses the widget, if it was ever built.
func (e *entry) blur() {
	switch {
	case e.list != nil:
		e.list.Blur()
	case e.widget != nil:
		e.widget.Blur()
	}
}

// update sends a message to the widget.
func (e *entry) update(msg tea.Msg) tea.Cmd {
	if e.list != nil {
		return e.list.Update(msg)
	}
	w, cmd := e.widget.Update(msg)
	if f, ok := w.(huh.Field); ok {
		e.widget = f
	}
	return cmd
}

// view draws the widget.
func (e *entry) view() string {
	if e.list != nil {
		return e.list.View()
	}
	return e.widget.View()
}

// isFiltering reports whether a list is taking typed text as a filter, so
// Esc and Enter belong to it.
func (e *entry) isFiltering() bool {
	switch w := e.widget.(type) {
	case *huh.Select[string]:
		return w.GetFiltering()
	case nil:
		return e.list != nil && e.list.filtering
	}
	return false
}

// ready builds the entry's widget if it has none yet and gives it the
// form's width if it has not got it.
func (m *Model) ready(e *entry) {
	if !e.built() {
		e.build(m.km, m.hth, true)
		if e.widget != nil {
			e.widget.Init() // huh's fields return no command from Init
		}
	}
	if w := m.width - 4; e.width != w && e.setWidth(w) && e == m.cur {
		e.focus()
	}
}
