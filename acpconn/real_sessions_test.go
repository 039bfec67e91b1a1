package acpconn

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/question"
)

func TestListLoadResumeClose(t *testing.T) {
	c := startRaw(t, "raw-sessions", Config{})
	ctx := hangCtx(t)
	if caps := c.SessionCaps(); caps != (SessionCaps{List: true, Resume: true, Load: true, Close: true}) {
		t.Fatalf("caps %+v", caps)
	}
	list, err := c.ListSessions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != "s-new" || list[1].ID != "s-old" || strings.Contains(list[1].Title, "\x1b") {
		t.Fatalf("list (two pages, newest first, other directories left out, titles made safe): %+v", list)
	}
	if list[0].Updated.IsZero() {
		t.Error("updatedAt with fractional seconds was not read")
	}
	st, replayed, err := c.OpenSession(ctx, "s-old", true)
	if err != nil || !replayed || st.ID != "s-old" || st.Mode != "ask" {
		t.Fatalf("load: %+v %v %v", st, replayed, err)
	}
	// The replay arrived before OpenSession returned, as events.
	var text []string
	for len(c.Events()) > 0 {
		if mc, ok := (<-c.Events()).(MessageChunk); ok {
			text = append(text, mc.Text+"/"+mc.MessageID)
		}
	}
	if len(text) != 2 || text[0] != "earlier question/" || text[1] != "earlier answer/m0" {
		t.Fatalf("replay: %q", text)
	}
	st, replayed, err = c.OpenSession(ctx, "s-new", false)
	if err != nil || replayed || st.Model != "big" || c.SessionID() != "s-new" {
		t.Fatalf("resume: %+v %v %v", st, replayed, err)
	}
	if err := c.CloseSession(ctx); err != nil {
		t.Fatal(err)
	}
	c.StartPrompt("hi")
	end, evs := until[TurnEnded](t, c)
	if end.Err != nil {
		t.Fatal(end.Err)
	}
	var ids []string
	for _, ev := range evs {
		if mc, ok := ev.(MessageChunk); ok {
			ids = append(ids, mc.MessageID+":"+mc.Text)
		}
	}
	if len(ids) != 2 || ids[0] != "m1:first" || ids[1] != "m2:second closed:s-new" {
		t.Fatalf("chunks: %q", ids)
	}
}

func TestModeAndModelAreOneEach(t *testing.T) {
	c := startRaw(t, "raw-models", Config{})
	ctx := hangCtx(t)
	st, err := c.NewSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mode, ok := st.Selector(KindMode)
	if !ok || mode.Option == nil || mode.Option.ID != "mode" || len(mode.Choices) != 2 || mode.Choices[0].Description != "asks first" {
		t.Fatalf("mode selector (the option wins over modes): %+v", mode)
	}
	model, ok := st.Selector(KindModel)
	if !ok || model.Option != nil || model.CurrentName() != "Model One" || model.Choices[0].Description != "small" {
		t.Fatalf("model selector (the unstable models): %+v", model)
	}
	if others := st.OtherOptions(); len(others) != 1 || others[0].ID != "effort" {
		t.Fatalf("other options: %+v", others)
	}
	st, err = c.Select(ctx, st, mode, mode.Next().ID)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := st.Selector(KindMode); m.Current != "code" || st.Mode != "code" {
		t.Fatalf("after set: option %q legacy %q", m.Current, st.Mode)
	}
	ch, ok := model.Find("model two")
	if !ok {
		t.Fatal("Find by name")
	}
	if st, err = c.Select(ctx, st, model, ch.ID); err != nil || st.Model != "m2" {
		t.Fatalf("set model: %v %+v", err, st)
	}
	c.StartPrompt("which")
	_, evs := until[TurnEnded](t, c)
	if got := agentText(evs); got != "mode=code model=m2" {
		t.Fatalf("agent saw %q", got)
	}
	// A current_mode_update moves the option too.
	st.Update(ModeChanged{ID: "ask"})
	if m, _ := st.Selector(KindMode); m.Current != "ask" {
		t.Errorf("mode option after a mode update: %q", m.Current)
	}
}

func TestSetupQuestionDuringSessionNew(t *testing.T) {
	got := make(chan *Conn, 1)
	cfg := Config{OnStart: func(c *Conn) { got <- c }}
	done := make(chan error, 1)
	var st SessionState
	go func() {
		c := startRaw(t, "raw-setup", cfg)
		var err error
		st, err = c.NewSession(hangCtx(t))
		done <- err
	}()
	c := <-got
	ev, _ := asked(t, c, question.Form)
	if ev.From.RequestID == "" || ev.From.Session != "" || ev.Message != "Which workspace?" {
		t.Fatalf("setup question: %+v", ev)
	}
	c.Answer(ev, question.Outcome{Action: question.Accept, Content: map[string]any{"workspace": "blue"}})
	if err := <-done; err != nil || st.ID != "ws-blue" {
		t.Fatalf("session %+v, %v", st, err)
	}
}

func TestStrayStdoutLinesAreShown(t *testing.T) {
	c := start(t, "odd-updates", Config{})
	c.StartPrompt("go")
	_, evs := until[TurnEnded](t, c)
	for _, ev := range evs {
		if o, ok := ev.(AgentOutput); ok && o.Line == "this is not json" {
			return
		}
	}
	t.Fatalf("no AgentOutput for the non-JSON line: %#v", evs)
}
