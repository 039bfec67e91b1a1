package session

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/question"
)

func writeQ(id uint64, risk string) acpconn.PermissionRequest {
	return acpconn.PermissionRequest{ID: id, ToolCall: acpconn.ToolCall{Title: "write .envrc", Diffs: []acpconn.Diff{{Path: ".envrc", New: "x\n"}}},
		Write: &acpconn.WriteQuestion{Path: ".envrc", Risk: risk}, Options: []acpconn.PermissionOption{
			{ID: acpconn.WriteAllow, Name: "Allow this write", Kind: "allow_once"}, {ID: acpconn.WriteRefuse, Name: "Refuse it", Kind: "reject_once"}}}
}

// A write question is a question like any other: queued for a person;
// without one, --approve allows it unless the file runs code later.
func TestWriteQuestion(t *testing.T) {
	w := &wire{}
	c := New(w, Policy{Person: true}, nil)
	ch := c.Apply(writeQ(1, ""))
	if len(ch.Asked) != 1 || !ch.Asked[0].IsWrite() || len(w.sent) != 0 {
		t.Fatalf("not asked: %+v, sent %q", ch, w.sent)
	}
	ch = c.Answer(ch.Asked[0], question.Outcome{Action: question.Accept, Option: acpconn.WriteRefuse})
	if w.sent[0] != "perm "+acpconn.WriteRefuse || !strings.Contains(ch.Notes[0].Text, "write to .envrc: Refuse it") {
		t.Fatalf("sent %q, notes %+v", w.sent, ch.Notes)
	}
	for _, tc := range []struct {
		risk, want string
	}{{"", "perm " + acpconn.WriteAllow}, {"direnv runs .envrc", "perm " + acpconn.WriteRefuse}} {
		w := &wire{}
		ch := New(w, Policy{Approve: true}, nil).Apply(writeQ(2, tc.risk))
		if len(ch.Asked) != 0 || len(w.sent) != 1 || w.sent[0] != tc.want {
			t.Errorf("risk %q: sent %q", tc.risk, w.sent)
		}
	}
}
