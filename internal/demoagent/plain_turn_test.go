package demoagent

import (
	"context"
	"strings"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

func TestInitializeAndSession(t *testing.T) {
	c := startAgent(t, bothModes, Options{})
	info := c.init.AgentInfo
	if info == nil || info.Name != "elicit-demo" || info.Title == nil || *info.Title != "Demo agent" || info.Version != "0.1" {
		t.Errorf("agentInfo = %+v", info)
	}
	if c.sess.Modes == nil || c.sess.Modes.CurrentModeId != modeAsk || len(c.sess.Modes.AvailableModes) != 2 {
		t.Errorf("modes = %+v", c.sess.Modes)
	}
	if len(c.sess.ConfigOptions) != 1 || c.sess.ConfigOptions[0].Select == nil || c.sess.ConfigOptions[0].Select.Id != optionPace {
		t.Errorf("config options = %+v", c.sess.ConfigOptions)
	}
	// The commands arrive on their own shortly after session/new.
	deadline := time.After(waitLimit)
	for {
		updates, _, _ := c.snapshot()
		for _, u := range updates {
			if ac := u.Update.AvailableCommandsUpdate; ac != nil {
				names := map[string]bool{}
				for _, cmd := range ac.AvailableCommands {
					names[cmd.Name] = true
				}
				for _, want := range []string{"help", "form", "url", "all", "risky", "bad", "slow", "flood", "forms", "exit"} {
					if !names[want] {
						t.Errorf("available commands miss %q", want)
					}
				}
				return
			}
		}
		select {
		case <-c.updated:
		case <-deadline:
			t.Fatal("no available_commands_update")
		}
	}
}

// toolStatuses returns each tool call's statuses in the order they were sent, and its kind; it
// fails the test for a tool call without a location.
func toolStatuses(t *testing.T, updates []acp.SessionNotification) (map[acp.ToolCallId][]acp.ToolCallStatus, map[acp.ToolCallId]acp.ToolKind) {
	statuses := map[acp.ToolCallId][]acp.ToolCallStatus{}
	kinds := map[acp.ToolCallId]acp.ToolKind{}
	for _, u := range updates {
		if tc := u.Update.ToolCall; tc != nil {
			statuses[tc.ToolCallId] = append(statuses[tc.ToolCallId], tc.Status)
			kinds[tc.ToolCallId] = tc.Kind
			if len(tc.Locations) == 0 {
				t.Errorf("tool call %q has no location", tc.Title)
			}
		}
		if tu := u.Update.ToolCallUpdate; tu != nil && tu.Status != nil {
			statuses[tu.ToolCallId] = append(statuses[tu.ToolCallId], *tu.Status)
		}
	}
	return statuses, kinds
}

func TestPlainPrompt(t *testing.T) {
	tests := []struct {
		name       string
		answer     func(acp.RequestPermissionRequest) (any, *acp.RequestError)
		editStatus acp.ToolCallStatus
		replyHas   string
	}{
		{"allow once", pickOption(optAllowOnce), acp.ToolCallStatusCompleted, "you allowed the edit once"},
		{"reject once", pickOption(optRejectOnce), acp.ToolCallStatusFailed, "you rejected the edit"},
		{"cancelled", func(acp.RequestPermissionRequest) (any, *acp.RequestError) {
			return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeCancelled()}, nil
		}, acp.ToolCallStatusFailed, "the permission request was cancelled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := startAgent(t, bothModes, Options{})
			c.onPermission = tt.answer
			c.mustPrompt("hello there", acp.StopReasonEndTurn)
			updates, _, perms := c.snapshot()

			var turn []acp.SessionNotification
			for _, u := range updates {
				if u.Update.AvailableCommandsUpdate == nil {
					turn = append(turn, u)
				}
			}
			if len(turn) == 0 || turn[0].Update.AgentThoughtChunk == nil {
				t.Fatalf("the turn does not start with a thought: %+v", turn)
			}
			var plans [][]acp.PlanEntry
			for _, u := range turn {
				if p := u.Update.Plan; p != nil {
					plans = append(plans, p.Entries)
				}
			}
			if len(plans) < 3 {
				t.Fatalf("got %d plan updates, want at least 3", len(plans))
			}
			for _, e := range plans[len(plans)-1] {
				if e.Status != acp.PlanEntryStatusCompleted {
					t.Errorf("final plan entry %q is %s", e.Content, e.Status)
				}
			}
			if len(plans[0]) != 3 || plans[0][0].Status != acp.PlanEntryStatusPending {
				t.Errorf("first plan = %+v", plans[0])
			}

			statuses, kinds := toolStatuses(t, turn)
			var sawRead, sawEdit bool
			for id, st := range statuses {
				switch kinds[id] {
				case acp.ToolKindRead:
					sawRead = true
					want := []acp.ToolCallStatus{acp.ToolCallStatusPending, acp.ToolCallStatusInProgress, acp.ToolCallStatusCompleted}
					if !equalStatuses(st, want) {
						t.Errorf("read tool statuses = %v, want %v", st, want)
					}
				case acp.ToolKindEdit:
					sawEdit = true
					if st[0] != acp.ToolCallStatusPending || st[len(st)-1] != tt.editStatus {
						t.Errorf("edit tool statuses = %v, want pending ... %s", st, tt.editStatus)
					}
				}
			}
			if !sawRead || !sawEdit {
				t.Errorf("tool calls seen: read %v, edit %v", sawRead, sawEdit)
			}

			if len(perms) != 1 {
				t.Fatalf("got %d permission requests, want 1", len(perms))
			}
			kindsOffered := map[acp.PermissionOptionKind]bool{}
			for _, o := range perms[0].Options {
				kindsOffered[o.Kind] = true
			}
			if len(kindsOffered) != 4 {
				t.Errorf("permission options = %+v, want the four kinds", perms[0].Options)
			}
			if perms[0].SessionId != c.sid || perms[0].ToolCall.ToolCallId == "" {
				t.Errorf("permission request = %+v", perms[0])
			}

			text := c.messageText()
			for _, want := range []string{"## Demo reply", "> hello there", tt.replyHas, "```text"} {
				if !strings.Contains(text, want) {
					t.Errorf("reply misses %q:\n%s", want, text)
				}
			}
		})
	}
}

func equalStatuses(a, b []acp.ToolCallStatus) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestRememberedPermissionAndModes(t *testing.T) {
	c := startAgent(t, bothModes, Options{})
	c.setInstant()
	c.onPermission = pickOption(optAllowAlways)
	c.mustPrompt("first", acp.StopReasonEndTurn)
	c.mustPrompt("second", acp.StopReasonEndTurn)
	if _, _, perms := c.snapshot(); len(perms) != 1 {
		t.Errorf("after allow always: %d permission requests, want 1", len(perms))
	}
	if !strings.Contains(c.messageText(), "allow always") {
		t.Errorf("second reply does not mention the remembered choice:\n%s", c.messageText())
	}

	c2 := startAgent(t, bothModes, Options{})
	c2.setInstant()
	_, err := acp.SendRequest[acp.SetSessionModeResponse](c2.conn, context.Background(), acp.AgentMethodSessionSetMode,
		acp.SetSessionModeRequest{SessionId: c2.sid, ModeId: modeAuto})
	if err != nil {
		t.Fatalf("set_mode: %v", err)
	}
	c2.mustPrompt("auto please", acp.StopReasonEndTurn)
	updates, _, perms := c2.snapshot()
	if len(perms) != 0 {
		t.Errorf("auto mode asked %d permissions", len(perms))
	}
	var sawMode bool
	for _, u := range updates {
		if m := u.Update.CurrentModeUpdate; m != nil && m.CurrentModeId == modeAuto {
			sawMode = true
		}
	}
	if !sawMode {
		t.Error("no current_mode_update after set_mode")
	}
}

func TestSettingsErrors(t *testing.T) {
	c := startAgent(t, bothModes, Options{})
	ctx := context.Background()
	tests := []struct {
		name   string
		method string
		params any
	}{
		{"unknown mode", acp.AgentMethodSessionSetMode, acp.SetSessionModeRequest{SessionId: c.sid, ModeId: "yolo"}},
		{"unknown session", acp.AgentMethodSessionSetMode, acp.SetSessionModeRequest{SessionId: "nope", ModeId: modeAsk}},
		{"unknown option", acp.AgentMethodSessionSetConfigOption, acp.SetSessionConfigOptionRequest{
			ValueId: &acp.SetSessionConfigOptionValueId{SessionId: c.sid, ConfigId: "colour", Value: "red"}}},
		{"unknown value", acp.AgentMethodSessionSetConfigOption, acp.SetSessionConfigOptionRequest{
			ValueId: &acp.SetSessionConfigOptionValueId{SessionId: c.sid, ConfigId: optionPace, Value: "warp"}}},
		{"prompt in unknown session", acp.AgentMethodSessionPrompt, acp.PromptRequest{SessionId: "nope", Prompt: []acp.ContentBlock{acp.TextBlock("hi")}}},
		{"authenticate", acp.AgentMethodAuthenticate, acp.AuthenticateRequest{MethodId: "oauth"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := acp.SendRequest[map[string]any](c.conn, ctx, tt.method, tt.params)
			re, ok := err.(*acp.RequestError)
			if !ok || re.Code != -32602 {
				t.Errorf("error = %v, want -32602", err)
			}
		})
	}
	_, err := acp.SendRequest[map[string]any](c.conn, ctx, "session/load", map[string]any{})
	if re, ok := err.(*acp.RequestError); !ok || re.Code != -32601 {
		t.Errorf("unknown method: error = %v, want -32601", err)
	}
}
