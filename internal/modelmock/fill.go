package modelmock

import (
	"encoding/json"
	"strings"
)

// filler fills a JSON Schema with plausible values for a keyword.
type filler struct {
	kw, cwd, tool string
	shell         string // the command the prompt named ("" for "echo hi")
	item          int    // index within the enclosing array: 0 or 1
}

// itemValues are the per-item values of two-item arrays (todo entries,
// question options), by property name.
var itemValues = map[string][2]string{
	"label":       {"Red", "Blue"},
	"description": {"warm", "cool"},
	"content":     {"Say hello", "Wrap up"},
	"step":        {"Say hello", "Wrap up"},
	"title":       {"Say hello", "Wrap up"},
	"task":        {"Say hello", "Wrap up"},
	"text":        {"Say hello", "Wrap up"},
	"activeform":  {"Saying hello", "Wrapping up"},
	"id":          {"1", "2"},
	"priority":    {"medium", "low"},
}

// value returns a value for the property name with the given schema.
func (f filler) value(name string, schema map[string]any, depth int) any {
	if v, ok := f.named(name, schema); ok {
		return v
	}
	if enum, ok := schema["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	if depth > 6 {
		return nil
	}
	switch schemaType(schema) {
	case "object", "":
		props, _ := schema["properties"].(map[string]any)
		out := map[string]any{}
		for _, key := range required(schema, props) {
			ps, _ := props[key].(map[string]any)
			out[key] = f.value(key, ps, depth+1)
		}
		return out
	case "array":
		items, _ := schema["items"].(map[string]any)
		if items == nil {
			return []any{}
		}
		n := 1
		if f.kw == "plan" || name == "options" {
			n = 2
		}
		out := make([]any, n)
		for i := range out {
			g := f
			g.item = i
			out[i] = g.value(strings.TrimSuffix(name, "s"), items, depth+1)
		}
		return out
	case "string":
		return "x"
	case "integer", "number":
		return 1
	case "boolean":
		return false
	}
	return nil
}

// schemaType is the schema's type in lower case (Gemini writes "OBJECT"),
// the first one when it lists several.
func schemaType(schema map[string]any) string {
	if types, ok := schema["type"].([]any); ok && len(types) > 0 {
		t, _ := types[0].(string)
		return strings.ToLower(t)
	}
	t, _ := schema["type"].(string)
	return strings.ToLower(t)
}

// named returns a value chosen by the property's name, if it has a meaning
// the mock knows.
func (f filler) named(name string, schema map[string]any) (any, bool) {
	n := strings.ToLower(name)
	typ := schemaType(schema)
	if typ == "array" {
		if n == "command" || n == "cmd" || n == "argv" {
			return []any{"bash", "-lc", f.command()}, true
		}
		return nil, false
	}
	if typ == "object" {
		return nil, false
	}
	switch {
	case n == "command" || n == "cmd" || n == "script":
		return f.command(), true
	case n == "url" || n == "uri":
		return FetchURL, true
	case f.kw == "fetch" && n == "prompt":
		return "Summarise " + FetchURL, true
	case f.kw == "mcp" && (n == "message" || n == "text"):
		return "hi", true
	case strings.Contains(n, "path") || n == "file" || n == "filename":
		return helloPath(f.cwd), true
	case f.kw == "write" && (n == "content" || n == "contents" || n == "file_text" || n == "new_string" || n == "text"):
		return FileContent, true
	case n == "input" && strings.Contains(f.tool, "patch"), n == "patch":
		return patchText(f.cwd), true
	case n == "question":
		return "Which colour?", true
	case n == "header":
		return "Colour", true
	case n == "multiselect":
		return false, true
	case n == "status":
		if enum, ok := schema["enum"].([]any); ok && len(enum) > 0 {
			return enum[0], true
		}
		return "pending", true
	case n == "id" && (typ == "integer" || typ == "number"):
		return f.item + 1, true
	case f.kw == "bash" && n == "description":
		return "Print hi", true
	case f.kw == "ask" && n == "id":
		return "colour", true
	case schema["enum"] == nil && (typ == "string" || typ == ""):
		if v, ok := itemValues[n]; ok {
			return v[f.item], true
		}
	}
	return nil, false
}

// command is the shell command of a tool call: the one the prompt named,
// "echo hi", or for the write keyword (when the agent has no write tool) a
// command that writes hello.txt.
func (f filler) command() string {
	if f.kw == "write" {
		return "printf 'hello from the mock model\\n' > " + helloPath(f.cwd)
	}
	return orHi(f.shell)
}

// required lists the keys to fill: the required ones, or every property
// when the schema names none.
func required(schema, props map[string]any) []string {
	var keys []string
	if req, ok := schema["required"].([]any); ok {
		for _, k := range req {
			if s, ok := k.(string); ok {
				keys = append(keys, s)
			}
		}
	}
	if len(keys) == 0 {
		for k := range props {
			keys = append(keys, k)
		}
	}
	return keys
}

// mustJSON encodes v; the values the mock builds always encode.
func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
