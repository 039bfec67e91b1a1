package jsonlex

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzUnquote holds Unquote to encoding/json: every JSON string
// token encoding/json decodes, it decodes to the same string, and it
// accepts nothing encoding/json refuses.
func FuzzUnquote(f *testing.F) {
	for _, s := range []string{`"plain"`, `"line\n"`, `"tab\tquote\"slash\/back\\"`, `"\u00e9\u4e2d"`,
		`"\ud83d\ude00"`, `"\ud83d"`, `"\ud83dx"`, `"\udc00\ud83d"`, "\"\xff\xfe\"", `"\'"`, `"\x"`, `"a` + "\n" + `"`, `"\u12"`, `""`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var want string
		jsonErr := json.Unmarshal(raw, &want) // it allows white space around the token
		raw = bytes.Trim(raw, " \t\r\n")      // the token alone, as the scanner hands it over
		got, ok := Unquote(raw)
		isString := len(raw) > 0 && raw[0] == '"'
		if jsonErr == nil && isString && (!ok || got != want) {
			t.Fatalf("%q: got %q (%v), encoding/json %q", raw, got, ok, want)
		}
		if jsonErr != nil && ok {
			t.Fatalf("%q: accepted what encoding/json refuses: %v", raw, jsonErr)
		}
	})
}
