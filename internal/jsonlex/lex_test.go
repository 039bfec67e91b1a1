package jsonlex

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzTokens holds String and Number to encoding/json's grammar: what they
// read is a valid token by encoding/json, and a valid token at the start of
// the input is read whole.
func FuzzTokens(f *testing.F) {
	for _, s := range []string{`"a"`, `"a\"b" rest`, `"\u00e9"`, `"\x"`, `"open`, "\"\x01\"", `-0.5e+3,`, `01`, `1.`, `-`, `2E9]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if end, _, ok := String(raw, 0); ok != (len(raw) > 0 && raw[0] == '"' && json.Valid(raw[:end])) {
			t.Fatalf("String(%q) = %d, %v; encoding/json says %q is valid: %v", raw, end, ok, raw[:end], !ok)
		}
		tok := bytes.TrimRight(raw, " \t\r\n") // json.Valid allows white space after the token
		if json.Valid(raw) && len(raw) > 0 && raw[0] == '"' {
			if end, _, ok := String(raw, 0); !ok || end != len(tok) {
				t.Fatalf("String(%q) = %d, %v: a whole valid string not read", raw, end, ok)
			}
		}
		end, ok := Number(raw, 0)
		if ok && !json.Valid(raw[:end]) {
			t.Fatalf("Number(%q) read %q, which encoding/json refuses", raw, raw[:end])
		}
		if json.Valid(raw) && len(raw) > 0 && (raw[0] == '-' || isDigit(raw[0])) && (!ok || end != len(tok)) {
			t.Fatalf("Number(%q) = %d, %v: a whole valid number not read", raw, end, ok)
		}
	})
}
