package schema

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// jsonCases are texts the one-pass reader must judge, and read, exactly as
// encoding/json does.
var jsonCases = []string{
	`{"a":[1,-0.5,1e3,1.5E-2,true,false,null,"x",{},[]],"b":{"c":"\u00e9\ud83d\ude00\ud800\"\\\/\b\f\n\r\t"}}`,
	` { "a" : 1 , "a" : 2 } `, "{\"a\xff\":\"\xfe\"}", `"x"`, `0`, `-0`, `null`, `true`, `[]`, `{}`,
	`{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":1e}`, `{"a":-}`, `{"a":+1}`, `{"a":tru}`, `{"a":nul}`, `{"a":"\x01"}`,
	`{"a":"\q"}`, `{"a":"\u12"}`, `{"a":"\u12g4"}`, `{"a":[1,]}`, `{"a":{,}}`, `{"a":{"b"}}`, `{"a" 1}`,
	`{"a":1 "b":2}`, `{"a":1,}`, `{`, `{"a`, `{"a":`, `{"a":"`, `{"a":"\`, `[`, "", " ", `{"a":1}x`, `1 2`,
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000), strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
}

func TestReadJSONMatchesEncodingJSON(t *testing.T) {
	for _, c := range jsonCases {
		checkRead(t, []byte(c))
	}
}

// FuzzReadJSON checks the hand-written reader against encoding/json: the
// same texts are valid, and each value reads the same.
func FuzzReadJSON(f *testing.F) {
	for _, c := range jsonCases {
		f.Add([]byte(c))
	}
	for _, s := range benchSchemas {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkRead(t, b) })
}

func checkRead(t *testing.T, b []byte) {
	t.Helper()
	n, ok := readJSON(b)
	if ok != json.Valid(b) {
		t.Fatalf("%q: read %v, json.Valid %v", b, ok, !ok)
	}
	if !ok {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var want any
	if err := dec.Decode(&want); err != nil {
		t.Fatal(err)
	}
	if got := n.value(); !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: read %#v, encoding/json %#v", b, got, want)
	}
	if !bytes.Equal(n.raw, bytes.TrimSpace(b)) {
		t.Fatalf("%q: raw %q", b, n.raw)
	}
	checkRaw(t, n)
}

// checkRaw checks that every node's raw text is the value it holds.
func checkRaw(t *testing.T, n *node) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(n.raw))
	dec.UseNumber()
	var want any
	if err := dec.Decode(&want); err != nil || !reflect.DeepEqual(n.value(), want) {
		t.Fatalf("raw %q holds %#v, not %#v (%v)", n.raw, want, n.value(), err)
	}
	if len(n.raw) > 200 {
		return // deep nesting: the top was checked
	}
	for _, e := range n.elems {
		checkRaw(t, e)
	}
}
