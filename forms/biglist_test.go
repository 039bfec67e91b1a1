package forms

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/question"
)

// bigSelect is a schema with one select "pick" of n options "opt-000"...;
// extra is added to the properties and required lists the required keys.
func bigSelect(n int, extra, required string) string {
	opts := make([]string, n)
	for i := range opts {
		opts[i] = fmt.Sprintf(`"opt-%03d"`, i)
	}
	return `{"type":"object","properties":{"pick":{"type":"string","title":"Pick","enum":[` +
		strings.Join(opts, ",") + `]}` + extra + `},"required":[` + required + `]}`
}

// bigMulti is a schema with one multi-select "picks" of n options.
func bigMulti(n int, limits string) string {
	opts := make([]string, n)
	for i := range opts {
		opts[i] = fmt.Sprintf(`"opt-%03d"`, i)
	}
	return `{"type":"object","properties":{"picks":{"type":"array","title":"Picks","items":{"enum":[` +
		strings.Join(opts, ",") + `]}` + limits + `}},"required":["picks"]}`
}

// listView is the focused list's own view, escape codes stripped.
func listView(m *Model) string { return ansi.Strip(m.cur.view()) }

// submitted sends Enter until the form is done and returns its content.
func submitted(t *testing.T, m *Model) map[string]any {
	t.Helper()
	for range 5 {
		if _, done := m.Done(); done {
			break
		}
		press(m, "<enter>")
	}
	out, done := m.Done()
	if !done || out.Action != question.Accept {
		t.Fatalf("outcome %+v done %v; view:\n%s", out, done, ansi.Strip(m.View()))
	}
	return out.Content
}

func TestBigListPicks(t *testing.T) {
	tests := []struct {
		name     string
		schema   string
		keys     []string
		want     map[string]any
		wantView string // in the list's view just before the content is sent
	}{
		{"first option of a required list", bigSelect(300, "", `"pick"`), nil,
			map[string]any{"pick": "opt-000"}, "1 of 300"},
		{"optional starts on no answer", bigSelect(300, "", ""), nil,
			map[string]any{}, "> (no answer)"},
		{"arrows", bigSelect(300, "", `"pick"`), []string{"<down>", "<down>", "<up>", "<down>", "<down>"},
			map[string]any{"pick": "opt-003"}, "4 of 300"},
		{"up from the top wraps to the end", bigSelect(300, "", `"pick"`), []string{"<up>"},
			map[string]any{"pick": "opt-299"}, "300 of 300"},
		{"end and home", bigSelect(300, "", `"pick"`), []string{"<end>", "<up>", "<home>", "<down>"},
			map[string]any{"pick": "opt-001"}, "> opt-001"},
		{"page down", bigSelect(300, "", `"pick"`), []string{"<pgdown>", "<pgdown>", "<pgup>"},
			map[string]any{"pick": fmt.Sprintf("opt-%03d", listRows)}, fmt.Sprintf("%d of 300", listRows+1)},
		{"filter, move, enter picks", bigSelect(300, "", `"pick"`), []string{"/", "opt-12", "<down>", "<enter>"},
			map[string]any{"pick": "opt-121"}, "/opt-12 · 2 of 10 matching (300 in all)"},
		{"filter keeps the hovered option when it still matches", bigSelect(300, "", `"pick"`),
			[]string{"<down>", "<down>", "/", "00", "<enter>"},
			map[string]any{"pick": "opt-002"}, "> opt-002"},
		{"j and k are text while filtering", bigSelect(300, `,"x":{"type":"string","enum":`+jk()+`}`, `"pick"`),
			[]string{"<tab>", "/", "jk", "<enter>"},
			map[string]any{"pick": "opt-000", "x": "jk-1"}, "/jk"},
		{"esc clears the filter and goes back to the choice", bigSelect(300, "", `"pick"`), []string{"/", "opt-29", "<esc>", "<down>"},
			map[string]any{"pick": "opt-001"}, "2 of 300"},
		{"a filter matching nothing is dropped on enter", bigSelect(300, "", `"pick"`), []string{"/", "zzz", "<enter>", "<down>"},
			map[string]any{"pick": "opt-001"}, "2 of 300"},
		{"no answer found by filter", bigSelect(300, "", ""), []string{"<down>", "/", "no ans", "<enter>"},
			map[string]any{}, "/no ans"},
		{"paste goes into the filter", bigSelect(300, "", `"pick"`), []string{"/", "paste:opt-250", "<enter>"},
			map[string]any{"pick": "opt-250"}, "1 of 1 matching"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newTestModel(t, tt.schema)
			if m.cur.list == nil {
				t.Fatal("a 300-option select is not a bigList")
			}
			for _, k := range tt.keys {
				if p, ok := strings.CutPrefix(k, "paste:"); ok {
					m.Update(tea.PasteMsg{Content: p})
					continue
				}
				press(m, k)
			}
			if v := listView(m); !strings.Contains(v, tt.wantView) {
				t.Errorf("view lacks %q:\n%s", tt.wantView, v)
			}
			if got := submitted(t, m); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("content %#v, want %#v", got, tt.want)
			}
		})
	}
}

// jk is an enum of a few options that filter by "jk", long enough for a
// bigList.
func jk() string {
	opts := []string{`"jk-1"`}
	for i := range 200 {
		opts = append(opts, fmt.Sprintf(`"x-%d"`, i))
	}
	return "[" + strings.Join(opts, ",") + "]"
}

func TestBigListOther(t *testing.T) {
	schema := bigSelect(300, `,"pick_custom":{"type":"string","title":"Your own"}`, "")
	m := newTestModel(t, schema)
	press(m, "<end>")
	if v := listView(m); !strings.Contains(v, "> Other…") {
		t.Fatalf("Other… is not last:\n%s", v)
	}
	press(m, "<enter>")
	if m.cur.f.Key != "pick_custom" {
		t.Fatalf("focus on %q after picking Other…", m.cur.f.Key)
	}
	press(m, "mine")
	if got, want := submitted(t, m), map[string]any{"pick_custom": "mine"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("content %#v, want %#v", got, want)
	}
	// Filtering finds it too.
	m = newTestModel(t, schema)
	press(m, "/", "other", "<enter>", "<enter>", "x")
	if got, want := submitted(t, m), map[string]any{"pick_custom": "x"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("content %#v, want %#v", got, want)
	}
}

// Every move keeps the cursor's row on screen, and the list's view keeps
// its height whatever the filter.
func TestBigListScrollKeepsCursorVisible(t *testing.T) {
	m := newTestModel(t, bigSelect(5000, "", `"pick"`))
	m.SetSize(60, 30)
	keys := []string{"<down>", "<down>", "<pgdown>", "<pgdown>", "<down>", "<up>", "<pgup>", "<end>", "<up>", "<up>", "<home>", "<up>", "<down>"}
	for range 30 {
		keys = append(keys, "<down>")
	}
	for i, k := range keys {
		press(m, k)
		v := listView(m)
		want := "> " + m.cur.list.items[m.cur.list.hovered()].label
		if !strings.Contains(v, want) {
			t.Fatalf("after key %d (%s) the cursor row %q is not shown:\n%s", i, k, want, v)
		}
		if n := strings.Count(v, "\n") + 1; n != listRows+1 {
			t.Fatalf("after key %d the list is %d lines, want %d", i, n, listRows+1)
		}
		if full := strings.Split(ansi.Strip(m.View()), "\n"); len(full) > 30 {
			t.Fatalf("form view %d lines, over the height 30", len(full))
		}
	}
	for _, filter := range []string{"opt-4999", "opt-49", "nothing"} {
		m := newTestModel(t, bigSelect(5000, "", `"pick"`))
		press(m, "/", filter)
		if n := strings.Count(listView(m), "\n") + 1; n != listRows+1 {
			t.Errorf("filter %q: list is %d lines, want %d:\n%s", filter, n, listRows+1, listView(m))
		}
		for _, l := range strings.Split(ansi.Strip(m.View()), "\n") {
			if w := ansi.StringWidth(l); w > 80 {
				t.Errorf("line %q is %d wide, over 80", l, w)
			}
		}
	}
}

func TestBigListMulti(t *testing.T) {
	tests := []struct {
		name string
		keys []string
		want any // content["picks"], or nil when the form must refuse
	}{
		{"space toggles, picks in option order", []string{"<down>", "<down>", "<space>", "<up>", "<up>", "<space>"}, []string{"opt-000", "opt-002"}},
		{"x toggles too, twice unpicks", []string{"x", "<down>", "x", "<up>", "x"}, []string{"opt-001"}},
		{"the limit refuses a third pick", []string{"<space>", "<down>", "<space>", "<down>", "<space>"}, []string{"opt-000", "opt-001"}},
		{"space is text while filtering", []string{"/", "opt-25", "<space>", "<backspace>", "<enter>"}, nil},
		{"filter then toggle", []string{"/", "opt-25", "<down>", "<enter>", "<space>"}, []string{"opt-251"}},
		{"nothing picked is refused", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newTestModel(t, bigMulti(300, `,"minItems":1,"maxItems":2`))
			if m.cur.list == nil {
				t.Fatal("a 300-option multi-select is not a bigList")
			}
			press(m, tt.keys...)
			press(m, "<enter>", "<enter>")
			out, done := m.Done()
			if tt.want == nil {
				if done {
					t.Fatalf("accepted %+v", out)
				}
				if v := ansi.Strip(m.View()); !strings.Contains(v, "needs attention") {
					t.Fatalf("no error shown:\n%s", v)
				}
				return
			}
			if !done || !reflect.DeepEqual(out.Content["picks"], tt.want) {
				t.Fatalf("outcome %+v done %v, want picks %v; view:\n%s", out, done, tt.want, ansi.Strip(m.View()))
			}
		})
	}
}

// Short lists stay huh's widgets; long ones in accessible mode too.
func TestBigListOnlyAboveThreshold(t *testing.T) {
	if m := newTestModel(t, bigSelect(filterAbove, "", `"pick"`)); m.cur.list != nil || m.cur.widget == nil {
		t.Error("a list at the threshold is not huh's")
	}
	if m := newTestModel(t, bigSelect(filterAbove+1, "", `"pick"`)); m.cur.list == nil {
		t.Error("a list over the threshold is not a bigList")
	}
}
