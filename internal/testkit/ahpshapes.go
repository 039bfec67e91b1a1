package testkit

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// The shapes of the Agent Host Protocol 1.1.0 that an elicit host sends,
// written from the protocol's types (microsoft/agent-host-protocol,
// types/ and the Go client's ahptypes): for each object, the fields it
// must have and the ones it may. An object with a field the protocol does
// not define, without a required one, or with an optional one set to null
// (absent is how the protocol says "none") does not match.
type shape struct{ required, optional []string }

var ahpShapes = map[string]shape{
	"SessionSummary": {[]string{"resource", "provider", "title", "status", "createdAt", "modifiedAt"},
		[]string{"activity", "origin", "project", "workingDirectories", "annotations", "changes", "_meta", "chats", "defaultChat"}},
	"ChatState": {[]string{"resource", "title", "status", "modifiedAt", "turns"},
		[]string{"activity", "changes", "origin", "movable", "interactivity", "workingDirectories", "changesets",
			"backgroundWork", "canvases", "turnsNextCursor", "activeTurn", "steeringMessage", "queuedMessages", "draft", "_meta"}},
	"ActiveTurn":    {[]string{"id", "startedAt", "message", "responseParts"}, []string{"usage"}},
	"SessionState":  {[]string{"provider", "title", "status", "lifecycle", "activeClients", "chats"}, []string{"activity", "origin", "project", "workingDirectories", "annotations", "creationError", "serverTools", "defaultChat", "config", "customizations", "changesets", "inputNeeded", "_meta"}},
	"ChatSummary":   {[]string{"resource", "title", "status", "modifiedAt"}, []string{"activity", "changes", "origin", "movable", "interactivity", "workingDirectories"}},
	"ChatInput":     {[]string{"id"}, []string{"message", "url", "questions", "answers"}},
	"ChatInputOpt":  {[]string{"id", "label"}, []string{"description", "recommended"}},
	"InputNeeded":   {[]string{"id", "chat", "kind", "request"}, nil},
	"InputPart":     {[]string{"kind", "request"}, []string{"response"}},
	"text":          question("format", "min", "max", "defaultValue"),
	"number":        question("min", "max", "defaultValue"),
	"integer":       question("min", "max", "defaultValue"),
	"boolean":       question("defaultValue"),
	"single-select": question("options", "allowFreeformInput"),
	"multi-select":  question("options", "allowFreeformInput", "min", "max"),
}

func question(more ...string) shape {
	return shape{[]string{"id", "message", "kind"}, append([]string{"title", "required"}, more...)}
}

// AHPShape checks raw against the protocol's shape of kind (a key of the
// table above: "SessionSummary", "ChatState", "SessionState",
// "ChatInput"...), and the shapes inside it elicit sends (active turn,
// input parts, requests, questions by kind, options); it returns what
// does not match, nil when all does.
func AHPShape(kind string, raw json.RawMessage) []string {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return []string{fmt.Sprintf("%s: not an object: %s", kind, clipRaw(raw))}
	}
	s, ok := ahpShapes[kind]
	if !ok {
		return nil // a kind the table leaves open (the protocol's are open)
	}
	var bad []string
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch {
		case slices.Contains(s.required, k):
		case slices.Contains(s.optional, k):
			if string(obj[k]) == "null" {
				bad = append(bad, fmt.Sprintf("%s.%s is null: an optional field is left out, never null", kind, k))
			}
		default:
			bad = append(bad, fmt.Sprintf("%s has %q, which the protocol does not define", kind, k))
		}
	}
	for _, k := range s.required {
		if v, ok := obj[k]; !ok || string(v) == "null" {
			bad = append(bad, fmt.Sprintf("%s lacks the required %q", kind, k))
		}
	}
	inner := func(k, kind string) {
		if v, ok := obj[k]; ok && string(v) != "null" {
			bad = append(bad, AHPShape(kind, v)...)
		}
	}
	list := func(k string, kindOf func(json.RawMessage) string) {
		var items []json.RawMessage
		_ = json.Unmarshal(obj[k], &items)
		for _, it := range items {
			bad = append(bad, AHPShape(kindOf(it), it)...)
		}
	}
	fixed := func(kind string) func(json.RawMessage) string { return func(json.RawMessage) string { return kind } }
	switch kind {
	case "ChatState":
		inner("activeTurn", "ActiveTurn")
	case "ActiveTurn":
		list("responseParts", func(p json.RawMessage) string {
			if strings.Contains(string(p), `"kind":"inputRequest"`) {
				return "InputPart"
			}
			return "other part"
		})
	case "InputPart", "InputNeeded":
		inner("request", "ChatInput")
	case "SessionState":
		list("chats", fixed("ChatSummary"))
		list("inputNeeded", fixed("InputNeeded"))
	case "ChatInput":
		list("questions", func(q json.RawMessage) string {
			var k struct{ Kind string }
			_ = json.Unmarshal(q, &k)
			return k.Kind
		})
	case "single-select", "multi-select":
		list("options", fixed("ChatInputOpt"))
	}
	return bad
}

func clipRaw(b []byte) string {
	if len(b) > 80 {
		return string(b[:80]) + "…"
	}
	return string(b)
}
