package demoagent

import (
	"encoding/json"
	"strings"
	"testing"

	acp "github.com/coder/acp-go-sdk"
)

// /risky sends the look-alike URL and the rm -rf ~ permission together and
// reports the answers; a declined URL and a rejected permission leave
// nothing pending.
func TestRisky(t *testing.T) {
	c := startAgent(t, bothModes, Options{})
	c.setInstant()
	c.onElicit = answerAction(actionDecline)
	c.onPermission = pickOption(optRejectOnce)
	c.mustPrompt("/risky", acp.StopReasonEndTurn)
	_, elicitations, perms := c.snapshot()
	if len(elicitations) != 1 || len(perms) != 1 {
		t.Fatalf("got %d elicitations and %d permissions, want 1 and 1", len(elicitations), len(perms))
	}
	var u sentURL
	if err := json.Unmarshal(elicitations[0], &u); err != nil {
		t.Fatal(err)
	}
	if u.Mode != "url" || u.Url != riskyURL || !strings.HasPrefix(u.ElicitationId, "risky-") || u.SessionId != c.sid {
		t.Errorf("URL request %+v", u)
	}
	p := perms[0]
	if p.ToolCall.Title == nil || *p.ToolCall.Title != "Delete your home directory" || p.ToolCall.Kind == nil || *p.ToolCall.Kind != acp.ToolKindDelete {
		t.Errorf("permission request for %+v", p.ToolCall)
	}
	text := c.messageText()
	for _, want := range []string{"### URL", `"action": "decline"`, "### Permission", "reject_once"} {
		if !strings.Contains(text, want) {
			t.Errorf("reply misses %q:\n%s", want, text)
		}
	}
	updates, _, _ := c.snapshot()
	shown := false
	for _, up := range updates {
		if tc := up.Update.ToolCall; tc != nil {
			for _, ct := range tc.Content {
				if ct.Content != nil && ct.Content.Content.Text != nil && ct.Content.Content.Text.Text == "rm -rf ~" {
					shown = true
				}
			}
		}
	}
	if !shown {
		t.Error("the tool call does not show the command rm -rf ~")
	}
}
