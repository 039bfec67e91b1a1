package question

import (
	"encoding/json"
	"testing"
)

func TestOutcomeJSON(t *testing.T) {
	for _, tt := range []struct {
		out  Outcome
		want string
	}{
		{Outcome{Action: Accept}, `{"action":"accept"}`},
		{Outcome{Action: Accept}.Reply(Form), `{"action":"accept","content":{}}`},
		{Outcome{Action: Accept, Content: map[string]any{"n": 1}}.Reply(URL), `{"action":"accept"}`},
		{Outcome{Action: "maybe", Content: map[string]any{"n": 1}}.Reply(Form), `{"action":"cancel"}`},
		{Outcome{Action: Accept, Content: map[string]any{"n": json.Number("2")}}, `{"action":"accept","content":{"n":2}}`},
		{Outcome{Action: Decline, Content: map[string]any{"n": 1}, Reason: "no"}, `{"action":"decline"}`},
		{Outcome{Action: Cancel, Draft: "\nname: x"}, `{"action":"cancel"}`},
	} {
		b, err := json.Marshal(tt.out)
		if err != nil || string(b) != tt.want {
			t.Errorf("%+v: %s, %v; want %s", tt.out, b, err, tt.want)
		}
	}
}

func TestActionValid(t *testing.T) {
	for a, want := range map[Action]bool{Accept: true, Decline: true, Cancel: true, "": false, "maybe": false, "Accept": false} {
		if a.Valid() != want {
			t.Errorf("%q.Valid() = %v", a, !want)
		}
	}
}

func TestNames(t *testing.T) {
	if Permission.String() != "permission" || Form.String() != "form" || URL.String() != "URL" {
		t.Errorf("kinds: %s %s %s", Permission, Form, URL)
	}
	if ByPerson.String() != "you" || ByRule.String() != "non-interactive" || ByRemote.String() != "remote client" {
		t.Errorf("by: %s %s %s", ByPerson, ByRule, ByRemote)
	}
}

func TestReplyKeepsWhatTheKindCarries(t *testing.T) {
	out := Outcome{Action: Accept, Option: "yes", Content: map[string]any{"n": 1}, By: ByHook, Reason: "r"}
	if p := out.Reply(Permission); p.Option != "yes" || p.Content != nil || p.By != ByHook || p.Reason != "r" {
		t.Errorf("permission: %+v", p)
	}
	if f := out.Reply(Form); f.Option != "" || f.Content["n"] != 1 {
		t.Errorf("form: %+v", f)
	}
	if c := (Outcome{Action: Cancel, Option: "yes"}).Reply(Permission); c.Action != Cancel || c.Option != "" {
		t.Errorf("a cancelled permission: %+v", c)
	}
}
