package demoagent

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// stepDelay is the pause between the steps of the plain turn at the normal pace.
const stepDelay = 120 * time.Millisecond

// planStep sends the three-entry plan with the first done entries completed and the next one
// in progress.
func (t *turn) planStep(done int) error {
	contents := []string{"Read the project README", "Note the request in NOTES.md", "Write the answer"}
	entries := make([]acp.PlanEntry, len(contents))
	for i, c := range contents {
		status := acp.PlanEntryStatusPending
		switch {
		case i < done:
			status = acp.PlanEntryStatusCompleted
		case i == done:
			status = acp.PlanEntryStatusInProgress
		}
		entries[i] = acp.PlanEntry{Content: c, Priority: acp.PlanEntryPriorityMedium, Status: status}
	}
	return t.update(acp.UpdatePlan(entries...))
}

// plain is the scripted reply to any prompt that is not a command: a thought, a plan, a read
// tool call, an edit tool call behind a permission request, and a streamed markdown answer.
// The edit is pretend: the demo agent writes no file.
func (t *turn) plain(prompt string) error {
	steps := []func() error{
		func() error {
			return t.think("The user wrote something. I'll read the README, note the request, then answer.")
		},
		func() error { return t.planStep(-1) },
		func() error { return t.planStep(0) },
		t.readTool,
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
		if err := t.pause(stepDelay); err != nil {
			return err
		}
	}
	if err := t.planStep(1); err != nil {
		return err
	}
	outcome, err := t.editTool(prompt)
	if err != nil {
		return err
	}
	if err := t.planStep(2); err != nil {
		return err
	}
	if err := t.say(plainReply(prompt, outcome)); err != nil {
		return err
	}
	return t.planStep(3)
}

// readTool shows a read tool call going pending, in progress, completed.
func (t *turn) readTool() error {
	id := newToolCallID()
	path := filepath.Join(t.s.cwd, "README.md")
	err := t.update(acp.StartToolCall(id, "Read README.md",
		acp.WithStartKind(acp.ToolKindRead),
		acp.WithStartStatus(acp.ToolCallStatusPending),
		acp.WithStartLocations([]acp.ToolCallLocation{{Path: path, Line: acp.Ptr(1)}}),
		acp.WithStartRawInput(map[string]any{"path": path}),
	))
	if err != nil {
		return err
	}
	if err := t.pause(stepDelay); err != nil {
		return err
	}
	if err := t.setToolStatus(id, acp.ToolCallStatusInProgress, ""); err != nil {
		return err
	}
	if err := t.pause(stepDelay); err != nil {
		return err
	}
	return t.setToolStatus(id, acp.ToolCallStatusCompleted, "# README\n\n(The demo agent pretends to have read 42 lines here.)")
}

// editTool shows an edit tool call that asks permission first (in "ask" mode, unless the user
// chose "always" earlier in the session) and returns a sentence saying what happened.
func (t *turn) editTool(prompt string) (string, error) {
	id := newToolCallID()
	path := filepath.Join(t.s.cwd, "NOTES.md")
	title := "Add a note to NOTES.md"
	locs := []acp.ToolCallLocation{{Path: path}}
	err := t.update(acp.StartToolCall(id, title,
		acp.WithStartKind(acp.ToolKindEdit),
		acp.WithStartStatus(acp.ToolCallStatusPending),
		acp.WithStartLocations(locs),
		acp.WithStartRawInput(map[string]any{"path": path, "append": noteLine(prompt)}),
	))
	if err != nil {
		return "", err
	}
	allowed, outcome, err := t.editDecision(acp.ToolCallUpdate{
		ToolCallId: id, Title: acp.Ptr(title), Kind: acp.Ptr(acp.ToolKindEdit), Locations: locs,
		Status:  acp.Ptr(acp.ToolCallStatusPending),
		Content: []acp.ToolCallContent{acp.ToolContent(acp.TextBlock("Append:\n" + noteLine(prompt)))},
	})
	if err != nil {
		return "", err
	}
	if !allowed {
		return outcome, t.setToolStatus(id, acp.ToolCallStatusFailed, "Not edited: "+outcome)
	}
	if err := t.setToolStatus(id, acp.ToolCallStatusInProgress, ""); err != nil {
		return "", err
	}
	if err := t.pause(stepDelay); err != nil {
		return "", err
	}
	return outcome, t.setToolStatus(id, acp.ToolCallStatusCompleted, "Appended (pretend):\n"+noteLine(prompt))
}

// editDecision decides whether the edit may go ahead, asking the client when the session's
// mode and remembered choice require it.
func (t *turn) editDecision(call acp.ToolCallUpdate) (allowed bool, outcome string, err error) {
	mode, _, remembered := t.s.settings()
	switch {
	case mode == modeAuto:
		return true, "edited without asking (auto mode)", nil
	case remembered == permAllow:
		return true, "edited without asking (you chose \"allow always\")", nil
	case remembered == permReject:
		return false, "not edited (you chose \"reject always\")", nil
	}
	kind, err := t.askPermission(call)
	if errors.Is(err, errPermissionCancelled) {
		return false, "the permission request was cancelled", nil
	}
	if err != nil {
		return false, "", err
	}
	switch kind {
	case acp.PermissionOptionKindAllowOnce:
		return true, "you allowed the edit once", nil
	case acp.PermissionOptionKindAllowAlways:
		t.s.rememberPermission(permAllow)
		return true, "you allowed the edit, and I won't ask again in this session", nil
	case acp.PermissionOptionKindRejectAlways:
		t.s.rememberPermission(permReject)
		return false, "you rejected the edit, and I won't ask again in this session", nil
	default:
		return false, "you rejected the edit", nil
	}
}

// noteLine is the line the pretend edit appends.
func noteLine(prompt string) string {
	return "- " + oneLine(prompt, 80)
}

// oneLine folds s onto one line and shortens it to at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// plainReply is the markdown answer of the plain turn.
func plainReply(prompt, outcome string) string {
	quoted := "> " + strings.ReplaceAll(strings.TrimSpace(prompt), "\n", "\n> ")
	return fmt.Sprintf(`## Demo reply

You wrote:

%s

### What I did
- Read `+"`README.md`"+` (pretend, nothing was read)
- Edit of `+"`NOTES.md`"+`: %s
- Nothing on disk was changed: this is the built-in demo agent.

### Try a command
`+"```text"+`
/form   every kind of form, one after another
/url    a URL flow with a local page to approve
/all    a form, a URL and a permission at once
/help   the full list
`+"```"+`
`, quoted, outcome)
}
