package attach

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/testkit"
	qn "github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

const token = "attach-test-token-0123"

func host(t *testing.T) (*ahp.Host, string)               { return uitest.AHPHost(t, token) }
func client(t *testing.T, url, id string) *ahp.Client     { return uitest.AHPClient(t, url, token, id) }
func completion(t *testing.T, h *ahp.Host) ahp.Completion { return uitest.Completion(t, h) }

func TestRunAnswers(t *testing.T) {
	h, url := host(t)
	c := client(t, url, "script")
	qs := []ahp.Question{
		{ID: "name", Kind: ahp.KindText, Message: "Name", Required: true},
		{ID: "color", Kind: ahp.KindSingleSelect, Message: "Colour", Options: []ahp.Option{{ID: "r", Label: "Red"}, {ID: "b", Label: "Blue"}}},
		{ID: "tags", Kind: ahp.KindMultiSelect, Message: "Tags", Options: []ahp.Option{{ID: "x", Label: "X"}, {ID: "y", Label: "Y"}}},
		{ID: "n", Kind: ahp.KindInteger, Message: "N", DefaultValue: json.RawMessage("3")},
	}
	h.Request(ahp.Request{ID: "r1", Questions: qs})
	var out, errs testkit.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- RunAnswers(ctx, c, map[string]json.RawMessage{"name": []byte(`"Ada"`), "color": []byte(`"b"`), "tags": []byte(`["x","y"]`)}, &out, &errs)
	}()
	got := completion(t, h)
	if got.Response != qn.Accept {
		t.Fatalf("completion %+v", got)
	}
	a := got.Request.Answers
	if a["name"].Value.Text != "Ada" || a["color"].Value.Selected != "b" || len(a["tags"].Value.Many) != 2 || a["n"].Value.Number != "3" {
		t.Fatalf("answers %+v", a)
	}
	// Nobody is there to consent to a URL, or to answer what the file
	// does not: cancelled, never declined (the agent would read decline
	// as a person's no), with the reason on stderr.
	h.Request(ahp.Request{ID: "u1", URL: "https://example.com/"})
	got = completion(t, h)
	if got.Response != qn.Cancel {
		t.Fatalf("a URL was not cancelled: %+v", got)
	}
	h.Request(ahp.Request{ID: "r2", Questions: []ahp.Question{{ID: "age", Kind: ahp.KindInteger, Message: "Age", Required: true}}})
	got = completion(t, h)
	if got.Response != qn.Cancel {
		t.Fatalf("a request the answers cannot fill was not cancelled: %+v", got)
	}
	out.WaitCount(t, "\n", 3) // three JSON lines
	for _, want := range []string{"cancel request u1: no person to consent to opening it", `cancel request r2: "age": required`} {
		errs.WaitFor(t, want)
	}
	cancel()
	<-done
	var line Completed
	if err := json.Unmarshal([]byte(strings.Split(out.String(), "\n")[0]), &line); err != nil || line.Request != "r1" || !line.Mine || line.Response != qn.Accept {
		t.Fatalf("line %q: %v", out.String(), err)
	}
}

// A select's default comes as the request's initial answer, a draft (the
// protocol has no default for it): an answers file that leaves the field
// out takes it, as the person's form starts from it. It was cancelled as
// a required field with no value (e2e-ahp's serve -p, attach --once).
func TestRunAnswersTakesHeldDefaults(t *testing.T) {
	h, url := host(t)
	c := client(t, url, "script")
	h.Request(ahp.Request{ID: "r", Questions: []ahp.Question{
		{ID: "status", Kind: ahp.KindSingleSelect, Message: "Status", Required: true, Options: []ahp.Option{{ID: "active", Label: "Active"}, {ID: "off", Label: "Off"}}},
		{ID: "name", Kind: ahp.KindText, Message: "Name", Required: true},
	}, Answers: map[string]ahp.Answer{"status": {State: ahp.Draft, Value: &ahp.Value{Kind: ahp.ValueSelected, Selected: "active"}}}})
	var out, errs testkit.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	line, err := AnswerOne(ctx, c, map[string]json.RawMessage{"name": []byte(`"Ada"`)}, &out, &errs)
	if err != nil || line.Response != qn.Accept || line.Answers["status"].Value.Selected != "active" {
		t.Fatalf("line %+v, err %v; stderr %s", line, err, errs.String())
	}
}
