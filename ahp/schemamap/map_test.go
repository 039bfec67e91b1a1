package schemamap

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/question/schema"
)

const everyKind = `{"type":"object","properties":{
 "email":{"type":"string","format":"email","minLength":3,"maxLength":40,"title":"Email"},
 "age":{"type":"integer","minimum":0,"maximum":150},
 "ratio":{"type":"number","maximum":1.5},
 "ok":{"type":"boolean","default":true},
 "color":{"type":"string","enum":["red","blue"]},
 "color_custom":{"type":"string"},
 "tags":{"type":"array","items":{"type":"string","enum":["a","b","c"]},"maxItems":2},
 "notes":{"type":"array","items":{"type":"string"}},
 "fixed":{"const":"v1"}
},"required":["email","age"]}`

func parse(t *testing.T, src string) *schema.Schema {
	t.Helper()
	s, err := schema.ParseSchema([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestFromSchemaKinds(t *testing.T) {
	m := FromSchema(parse(t, everyKind))
	got := map[string]ahp.Question{}
	var order []string
	for _, q := range m.Questions {
		got[q.ID] = q
		order = append(order, q.ID)
	}
	if want := []string{"email", "age", "ratio", "ok", "color", "tags", "notes"}; !reflect.DeepEqual(order, want) {
		t.Fatalf("questions %v, want %v (one per field, companion folded, const not asked)", order, want)
	}
	e := got["email"]
	if e.Kind != ahp.KindText || e.Format != "email" || *e.Min != "3" || *e.Max != "40" || !e.Required || e.Title != "Email" {
		t.Errorf("email: %+v", e)
	}
	if a := got["age"]; a.Kind != ahp.KindInteger || *a.Max != "150" || !a.Required {
		t.Errorf("age: %+v", a)
	}
	if r := got["ratio"]; r.Kind != ahp.KindNumber || *r.Max != "1.5" {
		t.Errorf("ratio: %+v", r)
	}
	if o := got["ok"]; o.Kind != ahp.KindBoolean || string(o.DefaultValue) != "true" {
		t.Errorf("ok: %+v", o)
	}
	if c := got["color"]; c.Kind != ahp.KindSingleSelect || !c.AllowFreeformInput || len(c.Options) != 2 || m.Companion("color") != "color_custom" {
		t.Errorf("color: %+v", c)
	}
	if g := got["tags"]; g.Kind != ahp.KindMultiSelect || *g.Max != "2" || g.AllowFreeformInput {
		t.Errorf("tags: %+v", g)
	}
	if n := got["notes"]; n.Kind != ahp.KindMultiSelect || !n.AllowFreeformInput || len(n.Options) != 0 {
		t.Errorf("notes: %+v", n)
	}
}

func sub(v ahp.Value) ahp.Answer { return ahp.Answer{State: ahp.Submitted, Value: &v} }

func TestContentFromAnswers(t *testing.T) {
	m := FromSchema(parse(t, everyKind))
	content, err := m.Content(map[string]ahp.Answer{
		"email": sub(ahp.Value{Kind: ahp.ValueText, Text: "a@b.co"}),
		"age":   sub(ahp.Value{Kind: ahp.ValueNumber, Number: "42"}),
		"color": sub(ahp.Value{Kind: ahp.ValueSelected, Freeform: []string{"teal"}}),
		"tags":  sub(ahp.Value{Kind: ahp.ValueSelectedMany, Many: []string{"a", "c"}}),
		"notes": sub(ahp.Value{Kind: ahp.ValueSelectedMany, Many: []string{}, Freeform: []string{"x", "y"}}),
		"ok":    {State: ahp.Draft, Value: &ahp.Value{Kind: ahp.ValueBoolean, Bool: false}}, // a draft is not sent
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"email": "a@b.co", "age": json.Number("42"), "color_custom": "teal",
		"tags": []string{"a", "c"}, "notes": []string{"x", "y"}, "fixed": "v1"}
	if !reflect.DeepEqual(content, want) {
		t.Fatalf("content %#v\nwant    %#v", content, want)
	}
	if _, err := m.Content(map[string]ahp.Answer{"email": sub(ahp.Value{Kind: ahp.ValueText, Text: "a@b.co"}),
		"age": sub(ahp.Value{Kind: ahp.ValueNumber, Number: "151"})}); err == nil {
		t.Fatal("an age above the maximum was taken")
	}
	if _, err := m.Content(map[string]ahp.Answer{"age": sub(ahp.Value{Kind: ahp.ValueNumber, Number: "1"})}); err == nil {
		t.Fatal("a missing required email was taken")
	}
}

// A host's questions become a form whose schema reads them back the same:
// questions -> schema -> questions is the identity on what matters.
func TestRoundTrip(t *testing.T) {
	host := FromSchema(parse(t, everyKind))
	client, notes, err := FromQuestions(host.Questions)
	if err != nil || len(notes) > 0 {
		t.Fatal(err, notes)
	}
	again := FromSchema(client.Schema)
	for i, q := range host.Questions {
		g := again.Questions[i]
		if g.ID != q.ID || g.Kind != q.Kind || g.Required != q.Required || g.AllowFreeformInput != q.AllowFreeformInput || len(g.Options) != len(q.Options) {
			t.Errorf("%s: %+v\nback as %+v", q.ID, q, g)
		}
	}
	// A form's values become answers and back.
	values := map[string]any{"email": "a@b.co", "age": json.Number("7"), "color": nil, "color_custom": "teal",
		"tags": []string{"b"}, "notes": []string{"l1"}}
	answers := client.Answers(values, ahp.Submitted)
	if a := answers["color"].Value; a.Selected != "" || a.Freeform[0] != "teal" {
		t.Errorf("free-form single: %+v", a)
	}
	if a := answers["notes"].Value; len(a.Many) != 0 || a.Freeform[0] != "l1" {
		t.Errorf("list: %+v", a)
	}
	for _, id := range []string{"email", "age", "color", "tags", "notes"} {
		back := client.Values(id, ptr(answers[id]))
		for k, v := range back {
			if !reflect.DeepEqual(v, values[k]) {
				t.Errorf("%s: field %s back as %#v, was %#v", id, k, v, values[k])
			}
		}
	}
}

func ptr(a ahp.Answer) *ahp.Answer { return &a }

func TestFreeformForms(t *testing.T) {
	opts := []ahp.Option{{ID: "red", Label: "Red"}, {ID: "blue", Label: "Blue"}}
	m, _, err := FromQuestions([]ahp.Question{
		{ID: "one", Kind: ahp.KindSingleSelect, Message: "One", Options: opts, AllowFreeformInput: true, Required: true},
		{ID: "many", Kind: ahp.KindMultiSelect, Message: "Many", Options: opts, AllowFreeformInput: true},
		{ID: "odd", Kind: "color-wheel", Message: "?"},
	})
	if err != nil {
		t.Fatal(err)
	}
	one := m.Schema.Field("one")
	if one.OtherKey != "one_custom" || one.OtherValue != otherOption {
		t.Fatalf("required free-form single: %+v", one)
	}
	if m.Schema.Field("many_more") == nil || m.Companion("many") != "many_more" {
		t.Fatalf("free-form multi has no companion: %+v", m.Schema.Fields)
	}
	if m.Schema.Field("odd") != nil {
		t.Fatal("an unknown kind was given a field")
	}
	a := m.Answer("one", map[string]any{"one": otherOption, "one_custom": "green"}, ahp.Draft)
	if a.Value.Selected != "" || a.Value.Freeform[0] != "green" {
		t.Fatalf("other picked: %+v", a.Value)
	}
	a = m.Answer("many", map[string]any{"many": []string{"red"}, "many_more": "green"}, ahp.Draft)
	if a.Value.Many[0] != "red" || a.Value.Freeform[0] != "green" {
		t.Fatalf("multi with text: %+v", a.Value)
	}
}

// Issue 35, item 4: the protocol defines defaultValue for text, numbers
// and booleans only. A select's default is its option marked recommended
// and an initial draft answer, which a client's form starts from.
func TestSelectDefaultsAreRecommendedDrafts(t *testing.T) {
	m := FromSchema(parse(t, `{"type":"object","properties":{
 "size":{"type":"string","enum":["s","m","l"],"default":"m"},
 "tags":{"type":"array","items":{"type":"string","enum":["a","b","c"]},"default":["a","c"]},
 "notes":{"type":"array","items":{"type":"string"},"default":["x"]},
 "name":{"type":"string","default":"Ada"}
}}`))
	for _, q := range m.Questions {
		switch q.Kind {
		case ahp.KindSingleSelect, ahp.KindMultiSelect:
			if q.DefaultValue != nil {
				t.Errorf("%s (%s) carries defaultValue %s", q.ID, q.Kind, q.DefaultValue)
			}
		case ahp.KindText:
			if string(q.DefaultValue) != `"Ada"` {
				t.Errorf("name's defaultValue is %s", q.DefaultValue)
			}
		}
		var rec []string
		for _, o := range q.Options {
			if o.Recommended {
				rec = append(rec, o.ID)
			}
		}
		want := map[string][]string{"size": {"m"}, "tags": {"a", "c"}}[q.ID]
		if !reflect.DeepEqual(rec, want) {
			t.Errorf("%s recommends %v, want %v", q.ID, rec, want)
		}
	}
	init := m.Initial()
	want := map[string]ahp.Answer{
		"size":  {State: ahp.Draft, Value: &ahp.Value{Kind: ahp.ValueSelected, Selected: "m"}},
		"tags":  {State: ahp.Draft, Value: &ahp.Value{Kind: ahp.ValueSelectedMany, Many: []string{"a", "c"}}},
		"notes": {State: ahp.Draft, Value: &ahp.Value{Kind: ahp.ValueSelectedMany, Many: []string{}, Freeform: []string{"x"}}},
	}
	if !reflect.DeepEqual(init, want) {
		g, _ := json.Marshal(init)
		w, _ := json.Marshal(want)
		t.Errorf("initial answers\n%s\nwant\n%s", g, w)
	}
	// A client's form built from the questions, with the initial drafts
	// applied, holds the defaults.
	back, _, err := FromQuestions(m.Questions)
	if err != nil {
		t.Fatal(err)
	}
	for id, a := range init {
		if v := back.Values(id, &a)[id]; v == nil {
			t.Errorf("%s: the draft gives the form nothing", id)
		}
	}
}
