package demoagent

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	acp "github.com/coder/acp-go-sdk"
)

// editFileLines is the length of the file /edit pretends to change.
const editFileLines = 200

// editFile is the text of the file /edit pretends to change: Go, so the
// client can colour it, with line 30 the one that changes.
func editFile(changed bool) string {
	var b strings.Builder
	b.WriteString("package demo\n\n// Settings the demo agent pretends to tune.\nvar (\n")
	for i := 5; i < editFileLines; i++ {
		v := i * 10
		if i == 30 && changed {
			v = 4096
		}
		fmt.Fprintf(&b, "\tsetting%03d = %d // line %d\n", i, v, i)
	}
	b.WriteString(")\n")
	return b.String()
}

// editCommand is "/edit": an edit tool call whose content is a diff, a
// one-line change on line 30 of a 200-line file, that asks permission
// (always, whatever the mode). Nothing is written.
func (t *turn) editCommand(string) error {
	id := newToolCallID()
	path := filepath.Join(t.s.cwd, "demo", "settings.go")
	title := "Edit demo/settings.go"
	diff := []acp.ToolCallContent{acp.ToolDiffContent(path, editFile(true), editFile(false))}
	locs := []acp.ToolCallLocation{{Path: path, Line: acp.Ptr(30)}}
	err := t.update(acp.StartToolCall(id, title, acp.WithStartKind(acp.ToolKindEdit),
		acp.WithStartStatus(acp.ToolCallStatusPending), acp.WithStartLocations(locs), acp.WithStartContent(diff)))
	if err != nil {
		return err
	}
	kind, err := t.askPermission(acp.ToolCallUpdate{ToolCallId: id, Title: acp.Ptr(title), Kind: acp.Ptr(acp.ToolKindEdit),
		Status: acp.Ptr(acp.ToolCallStatusPending), Locations: locs, Content: diff})
	outcome := "you rejected the edit"
	switch {
	case errors.Is(err, errPermissionCancelled):
		outcome = "the permission request was cancelled"
	case err != nil:
		return err
	case kind == acp.PermissionOptionKindAllowOnce || kind == acp.PermissionOptionKindAllowAlways:
		outcome = "you allowed the edit of line 30"
	}
	status := acp.ToolCallStatusFailed
	if strings.HasPrefix(outcome, "you allowed") {
		status = acp.ToolCallStatusCompleted
	}
	if err := t.update(acp.UpdateToolCall(id, acp.WithUpdateStatus(status))); err != nil {
		return err
	}
	return t.sayNow("Edit: " + outcome + " (a demo: nothing was written).\n")
}
