package demoagent

import (
	"encoding/json"
	"fmt"
	"strings"
)

// badCase is one malformed elicitation/create of /bad.
type badCase struct {
	name   string
	params func(t *turn) any
}

// badForm is a form request in the turn's session with the given (invalid) schema.
func badForm(schema string) func(t *turn) any {
	return func(t *turn) any {
		return t.formParams("This request is malformed on purpose; your client should refuse it.", schema, "")
	}
}

// badRaw is a request whose params are written out by hand: fields is the JSON object's
// members after the sessionId.
func badRaw(fields string) func(t *turn) any {
	return func(t *turn) any {
		sid, _ := json.Marshal(t.s.id)
		return json.RawMessage(fmt.Sprintf(`{"sessionId":%s,%s}`, sid, fields))
	}
}

// badCases lists what /bad sends, each of which a client must refuse with a JSON-RPC error.
func badCases() []badCase {
	const msg = `"message":"This request is malformed on purpose; your client should refuse it."`
	const okSchema = `"requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}`
	return []badCase{
		{"nested object property", badForm(`{"type":"object","properties":{"address":{"type":"object","properties":{"street":{"type":"string"}}}}}`)},
		{"array of objects", badForm(`{"type":"object","properties":{"people":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}}}}}}`)},
		{"top-level schema not an object", badForm(`{"type":"string"}`)},
		{"a union of types", badForm(`{"type":"object","properties":{"colour":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}`)},
		{"missing mode", badRaw(msg + "," + okSchema)},
		{"unknown mode", badRaw(msg + `,"mode":"banner",` + okSchema)},
		{"url mode without elicitationId", badRaw(msg + `,"mode":"url","url":"https://example.com/connect"`)},
		{"javascript: url", badRaw(msg + `,"mode":"url","elicitationId":"bad-js","url":"javascript:alert(1)"`)},
	}
}

// badCommand is /bad: it sends each malformed request in turn and reports the JSON-RPC error
// code and message the client answered with, or flags an answer that should have been an error.
func (t *turn) badCommand(string) error {
	if err := t.say("## Malformed elicitations\n\nEach of these should be refused with a JSON-RPC error " +
		"(`-32602` for invalid params).\n\n| Request | Client's answer |\n|---|---|\n"); err != nil {
		return err
	}
	for _, c := range badCases() {
		r, err := t.elicit(c.params(t))
		if t.ctx.Err() != nil {
			return t.ctx.Err()
		}
		var answer string
		if err != nil {
			answer = "`" + describeError(err) + "`"
		} else {
			answer = fmt.Sprintf("**not refused**: `%s`", r.raw)
		}
		if err := t.sayNow(fmt.Sprintf("| %s | %s |\n", c.name, tableCell(answer))); err != nil {
			return err
		}
	}
	return t.sayNow("\nThe session goes on: try `/help`.\n")
}

// tableCell makes s safe inside a markdown table cell.
func tableCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}
