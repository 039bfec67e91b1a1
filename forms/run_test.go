package forms

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
)

// runKeys runs the full-screen form as a real bubbletea program reading
// raw terminal bytes.
func runKeys(t *testing.T, schemaJSON, input string, grace time.Duration) question.Outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	out, err := Run(ctx, mustParse(t, schemaJSON), Header{Agent: "test"}, RunOptions{In: strings.NewReader(input), Out: io.Discard, Grace: grace})
	if err != nil {
		t.Fatal(err)
	}
	if ctx.Err() != nil {
		t.Fatal("Run did not end")
	}
	return out
}

func TestRunValidates(t *testing.T) {
	const age = `{"type":"object","properties":{"age":{"type":"integer","minimum":18},"note":{"type":"string"}},"required":["age"]}`
	for _, tc := range []struct {
		name, input, want string
	}{
		// 12 is refused at the review; fixed to 42 it is sent, the empty
		// optional note left out.
		{"fixed", "12\t\r\x1b[Z\x7f\x7f42\t\r\r", `{"action":"accept","content":{"age":42}}`},
		// 1.5 is not an integer: Enter reviews nothing; Ctrl+C (as Esc)
		// on a touched form asks first, y confirms the cancel.
		{"cancel", "1.5\t\r\x03y", `{"action":"cancel"}`},
		{"decline untouched", "\x18", `{"action":"decline"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := json.Marshal(runKeys(t, age, tc.input, -1))
			if string(b) != tc.want {
				t.Errorf("got %s, want %s", b, tc.want)
			}
		})
	}
}

// TestRunEndsWithContext: a form nobody answers is cancelled when its
// context ends.
func TestRunEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	in, w := io.Pipe() // keys that never come
	defer w.Close()
	done := make(chan question.Outcome, 1)
	go func() {
		out, _ := Run(ctx, mustParse(t, `{"type":"object","properties":{"ok":{"type":"boolean","default":true}}}`), Header{}, RunOptions{In: in, Out: io.Discard})
		done <- out
	}()
	cancel()
	if out := testkit.Recv(t, done, "end of Run with its context"); out.Action != question.Cancel {
		t.Errorf("got %v after the context ended, want cancel", out)
	}
}
