package hooks

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode"

	"github.com/elicit-dev/elicit/internal/config"
	"github.com/elicit-dev/elicit/question"
)

// FuzzHookOutput holds what a hook prints (read through the cap, as run
// reads it) and its exit status to the contract: decide never panics; an
// accepted content is one JSON object; a URL question is never accepted
// before the user answered; every text shown from the hook is one line
// without controls or bidi overrides, and short; and the cap keeps exactly
// the first maxStdout bytes and says when more came.
func FuzzHookOutput(f *testing.F) {
	f.Add([]byte(accept), []byte("warn\n"), int8(0), false, false, uint16(7))
	f.Add([]byte(`{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"accept"}}`), []byte{}, int8(0), true, false, uint16(1))
	f.Add([]byte(`{"decision":"block","reason":"\u202eno\u001b[2J"}`), []byte("\x1b]0;x\x07"), int8(0), false, true, uint16(0))
	f.Add([]byte("garbage"), []byte(strings.Repeat("é", 500)), int8(2), false, false, uint16(300))
	f.Fuzz(func(t *testing.T, stdout, stderr []byte, code int8, url, result bool, chunk uint16) {
		c := newCapped(maxStdout)
		total := 0
		for rest := bytes.Repeat(stdout, 1+maxStdout/max(1, len(stdout)*8)); len(rest) > 0; {
			n := min(len(rest), 1+int(chunk))
			c.Write(rest[:n])
			total, rest = total+n, rest[n:]
		}
		kept := c.bytes()
		select {
		case <-c.over:
			if total <= maxStdout {
				t.Fatalf("over after %d bytes", total)
			}
		default:
			if total > maxStdout {
				t.Fatalf("not over after %d bytes", total)
			}
		}
		if len(kept) != min(total, maxStdout) {
			t.Fatalf("kept %d of %d bytes", len(kept), total)
		}

		in := formInput()
		event := config.Elicitation
		if url {
			in = urlInput()
		}
		if result {
			event, in.Action = config.ElicitationResult, question.Decline
		}
		res, herr := decide(event, in, output{stdout: stdout, stderr: stderr, code: int(code)})
		if herr != nil {
			shownOK(t, "reason", herr.Reason)
			shownOK(t, "stderr", herr.Stderr)
			return
		}
		shownOK(t, "reason", res.Reason)
		if res.Decision == Answer && res.Action == question.Accept {
			if url {
				t.Fatalf("a URL question accepted by a hook (event %s): %+v", event, res)
			}
			var obj map[string]any
			if err := json.Unmarshal(res.Content, &obj); err != nil {
				t.Fatalf("accepted content %q: %v", res.Content, err)
			}
		}
	})
}

// shownOK fails when text from a hook is not fit for one line of a notice.
func shownOK(t *testing.T, what, s string) {
	t.Helper()
	if len(s) > 3*shownStderr+300 { // each newline is shown as " / "; a reason quotes 60 bytes
		t.Errorf("%s of %d bytes", what, len(s))
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			t.Errorf("%s holds %U: %q", what, r, s)
			return
		}
	}
}
