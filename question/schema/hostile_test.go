package schema

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// hostile is text an agent might send to take over a terminal: an OSC 52
// clipboard write, a screen clear, a C1 CSI, a bell, a bidi override, a
// zero-width space and a tag character.
const hostile = "\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\u009b31m\a\u202eevil\u200b\U000E0041"

// unsafeRune returns the first character of s that must not reach a
// terminal, or -1.
func unsafeRune(s string) rune {
	for _, r := range s {
		if r < 0x20 && r != '\n' || r >= 0x7f && r < 0xa0 || sanitize.Visible(r) {
			return r
		}
	}
	return -1
}

// Every hint, note, label, pattern text and error message built from a
// hostile schema or hostile answers is safe to print.
func TestHostileStringsNeverRaw(t *testing.T) {
	h, _ := json.Marshal(hostile)
	hs := string(h)
	src := `{"type":"object","title":` + hs + `,"description":` + hs + `,"properties":{
		"s":{"type":"string","title":` + hs + `,"description":` + hs + `,"pattern":` + hs + `,"default":` + hs + `},
		"p":{"type":"string","pattern":"^(?=a)` + strings.Trim(hs, `"`) + `$","minLength":1,"maxLength":3},
		"e":{"type":"string","enum":[` + hs + `,"b"],"default":"nope` + strings.Trim(hs, `"`) + `"},
		"o":{"type":"string","oneOf":[{"const":` + hs + `,"title":` + hs + `,"description":` + hs + `}]},
		"m":{"type":"array","items":{"enum":[` + hs + `]},"maxItems":1,"default":[` + hs + `,` + hs + `]},
		"n":{"type":"integer","exclusiveMinimum":0,"default":` + hs + `},
		"l":{"type":"array","items":{"type":"string","pattern":` + hs + `}},
		"c":{"const":` + hs + `,"title":` + hs + `}
	},"required":["s"]}`
	s, err := ParseSchema([]byte(src))
	if err != nil {
		t.Fatalf("ParseSchema: %v", err)
	}
	var msgs []string
	for _, f := range s.Fields {
		msgs = append(msgs, f.Label(), f.PatternText())
		msgs = append(msgs, f.Hints()...)
		msgs = append(msgs, f.Notes...)
		for _, in := range []string{hostile, "x", "", "1.5", "nope"} {
			if _, err := f.ParseInput(in); err != nil {
				msgs = append(msgs, err.Error())
			}
		}
	}
	answers := map[string]json.RawMessage{}
	for _, f := range s.Fields {
		answers[f.Key] = h
	}
	answers["m"] = json.RawMessage(`[` + hs + `,` + hs + `]`)
	_, err = s.FromAnswers(answers)
	if err == nil {
		t.Fatal("hostile answers accepted")
	}
	msgs = append(msgs, err.Error())
	if err := s.Check(map[string]any{"s": hostile, "e": hostile + "x", hostile: 1}); err != nil {
		msgs = append(msgs, err.Error())
	}
	for _, bad := range []string{
		`{"type":"object","properties":{` + hs + `:{"type":` + hs + `}}}`,
		`{"type":"object","properties":{"a":{"$ref":` + hs + `}}}`,
		`{"type":"object","properties":{"a":{"type":"string","enum":[` + hs + `,` + hs + `]}}}`,
		`{"type":"object","properties":{"a":{"const":1,"type":` + hs + `}}}`,
	} {
		_, err := ParseSchema([]byte(bad))
		if err == nil {
			t.Fatalf("accepted: %s", bad)
		}
		msgs = append(msgs, err.Error())
	}
	if len(msgs) < 40 {
		t.Fatalf("only %d messages checked", len(msgs))
	}
	for _, m := range msgs {
		if r := unsafeRune(m); r >= 0 {
			t.Errorf("U+%04X reaches a message: %q", r, m)
		}
	}
}
