package demoagent

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	acp "github.com/coder/acp-go-sdk"
)

// formCommand is /form [name]: the catalog's forms one after another (or just the named one),
// each waiting for its answer, with the answer reported as JSON.
func (t *turn) formCommand(arg string) error {
	if !t.a.clientCaps().form {
		return t.say(noMode("form"))
	}
	specs := formCatalog()
	if arg != "" {
		f, ok := formByName(strings.ToLower(arg))
		if !ok {
			return t.sayNow(fmt.Sprintf("There is no form called `%s`. Forms: %s.\n", arg, formNames()))
		}
		specs = []formSpec{f}
	}
	intro := "## Form\n\nI'll ask one form and show what I received.\n\n"
	if len(specs) > 1 {
		intro = fmt.Sprintf("## Forms\n\nI'll ask %d forms, one after another, and show what I received.\n\n", len(specs))
	}
	if err := t.say(intro); err != nil {
		return err
	}
	for i, f := range specs {
		r, err := t.askForm(f)
		if t.ctx.Err() != nil {
			return t.ctx.Err()
		}
		if err := t.say(receivedReport(fmt.Sprintf("%d. %s", i+1, f.name), r, err)); err != nil {
			return err
		}
	}
	return nil
}

// formNames lists the catalog's names for messages.
func formNames() string {
	var names []string
	for _, f := range formCatalog() {
		names = append(names, "`"+f.name+"`")
	}
	return strings.Join(names, ", ")
}

// askForm asks one catalog form; a tool-call scoped form first starts its tool call and then
// completes or fails it by the answer.
func (t *turn) askForm(f formSpec) (elicitResult, error) {
	if !f.toolCall {
		return t.elicit(t.formParams(f.message, f.schema, ""))
	}
	id := newToolCallID()
	path := filepath.Join(t.s.cwd, "build")
	err := t.update(acp.StartToolCall(id, "Delete ./build",
		acp.WithStartKind(acp.ToolKindDelete),
		acp.WithStartStatus(acp.ToolCallStatusPending),
		acp.WithStartLocations([]acp.ToolCallLocation{{Path: path}}),
		acp.WithStartContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock("rm -r ./build (42 files)"))}),
	))
	if err != nil {
		return elicitResult{}, err
	}
	r, elicitErr := t.elicit(t.formParams(f.message, f.schema, id))
	if t.ctx.Err() != nil {
		return r, elicitErr
	}
	status, text := acp.ToolCallStatusFailed, "Not deleted: the request failed"
	switch {
	case elicitErr != nil:
	case r.action == actionAccept && confirmed(r.content):
		status, text = acp.ToolCallStatusCompleted, "Deleted 42 files (pretend: nothing was deleted)"
	case r.action == actionAccept:
		text = "Not deleted: you left the confirmation unticked"
	default:
		text = "Not deleted: you chose " + r.action
	}
	if err := t.setToolStatus(id, status, text); err != nil {
		return r, err
	}
	return r, elicitErr
}

// confirmed reports whether accepted content says {"confirm": true}.
func confirmed(content json.RawMessage) bool {
	var c struct {
		Confirm bool `json:"confirm"`
	}
	return json.Unmarshal(content, &c) == nil && c.Confirm
}

// formsBench is /forms N: N one-field forms in a row, then a count of the answers.
func (t *turn) formsBench(arg string) error {
	n, err := parseCount(arg, 10, 100000)
	if err != nil {
		return t.sayNow(err.Error() + "\n")
	}
	if !t.a.clientCaps().form {
		return t.say(noMode("form"))
	}
	counts := map[string]int{}
	var firstErr error
	for i := 1; i <= n; i++ {
		r, err := t.elicit(t.formParams(fmt.Sprintf("Form %d of %d", i, n), smallFormSchema, ""))
		switch {
		case t.ctx.Err() != nil:
			return t.ctx.Err()
		case err != nil:
			counts["error"]++
			if firstErr == nil {
				firstErr = err
			}
		default:
			counts[r.action]++
		}
	}
	msg := fmt.Sprintf("Accepted %d of %d forms (declined %d, cancelled %d, errors %d).\n",
		counts[actionAccept], n, counts[actionDecline], counts[actionCancel], counts["error"])
	if firstErr != nil {
		msg += fmt.Sprintf("\nFirst error: `%s`\n", describeError(firstErr))
	}
	return t.sayNow(msg)
}
