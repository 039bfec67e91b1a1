package session

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/question"
)

// The option ids of acpconn's write questions (writeAllow and
// WriteRefuse): the core knows them only as an allow and a reject option.
const (
	writeAllow  = "allow-write"
	writeRefuse = "refuse-write"
)

func writeQ(id uint64, risk string) question.Asked {
	return question.Asked{Q: &question.Question{ID: id, Kind: question.Permission, From: question.From{Tool: "write .envrc"},
		Tool:  &question.Tool{Title: "write .envrc", Diffs: []question.Diff{{Path: ".envrc", New: "x\n"}}},
		Write: &question.Write{Path: ".envrc", Risk: risk}, Options: []question.Option{
			{ID: writeAllow, Name: "Allow this write", Kind: "allow_once"}, {ID: writeRefuse, Name: "Refuse it", Kind: "reject_once"}}}}
}

// A write question is a question like any other: queued for a person;
// without one, --approve allows it unless the file runs code later.
func TestWriteQuestion(t *testing.T) {
	w := &wire{}
	c := New(w, Policy{Person: true}, nil)
	ch := c.Apply(writeQ(1, ""))
	if len(ch.Asked) != 1 || ch.Asked[0].Write == nil || len(w.sent) != 0 {
		t.Fatalf("not asked: %+v, sent %q", ch, w.sent)
	}
	ch = c.Answer(ch.Asked[0], question.Outcome{Action: question.Accept, Option: writeRefuse})
	if w.sent[0] != "perm "+writeRefuse || !strings.Contains(ch.Notes[0].Text, "write to .envrc: Refuse it") {
		t.Fatalf("sent %q, notes %+v", w.sent, ch.Notes)
	}
	for _, tc := range []struct {
		risk, want string
	}{{"", "perm " + writeAllow}, {"direnv runs .envrc", "perm " + writeRefuse}} {
		w := &wire{}
		ch := New(w, Policy{Approve: true}, nil).Apply(writeQ(2, tc.risk))
		if len(ch.Asked) != 0 || len(w.sent) != 1 || w.sent[0] != tc.want {
			t.Errorf("risk %q: sent %q", tc.risk, w.sent)
		}
	}
}
