package termout

import (
	"bytes"
	"testing"
)

// FuzzPolicies checks each policy's promise on any input, written whole or
// split in two anywhere: the output holds no sequence the policy does not
// allow (as x/ansi's own parser reads it, not this package's), no C1
// control, no control but those the policy keeps, and no raw bidi or
// invisible character outside Pipe; and splitting the input does not change
// the output.
func FuzzPolicies(f *testing.F) {
	for _, s := range []string{hostile, "\x1b]8;;https://e.example/", "\x1b[31mx", "\xe2\x80", "\x1b]0;\u009b\x07"} {
		f.Add([]byte(s), uint(3))
	}
	f.Fuzz(func(t *testing.T, in []byte, cut uint) {
		for _, p := range []Policy{Pipe, Plain, Styled, Screen, View} {
			var whole, split bytes.Buffer
			New(&whole, p).Write(in)
			w := New(&split, p)
			k := 0
			if len(in) > 0 {
				k = int(cut % uint(len(in)+1))
			}
			w.Write(in[:k])
			w.Write(in[k:])
			if !bytes.Equal(whole.Bytes(), split.Bytes()) {
				t.Fatalf("%s: split at %d changed the output:\n%q\n%q", policyName(p), k, whole.Bytes(), split.Bytes())
			}
			if msg := Check(whole.Bytes(), p); msg != "" {
				t.Fatalf("%s: %s in %q from %q", policyName(p), msg, whole.Bytes(), in)
			}
		}
	})
}
