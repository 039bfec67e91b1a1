package acpconn

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The meta-terminal agents speak the agents' _meta terminal extension as
// the real ones do, and only to a client that declares it, as they check
// it: claude-agent-acp reads clientCapabilities._meta.terminal_output_delta
// (deltas) or terminal_output (ClientCapabilities.from in its
// tool-calls/client-capabilities.js); codex-acp 0.16.0 reads
// terminal_output alone (SessionClient::supports_terminal_output) and then
// sends each piece of output as terminal_output. A client that declares
// neither gets the output as plain content, at the end.
func init() {
	scripts["raw-meta-terminal"] = func(a *scripted) {
		init := a.recvMethod("initialize")
		params, _ := init["params"].(map[string]any)
		caps, _ := params["clientCapabilities"].(map[string]any)
		meta, _ := caps["_meta"].(map[string]any)
		delta, _ := meta["terminal_output_delta"].(bool)
		output, _ := meta["terminal_output"].(bool)
		a.reply(init, map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{}, "authMethods": []any{}})
		a.reply(a.recvMethod("session/new"), map[string]any{"sessionId": "s1"})
		p := a.prompt()
		wd, _ := os.Getwd()
		waitFor := func(name string) {
			for {
				if _, err := os.Stat(filepath.Join(wd, name)); err == nil {
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
		// codex-acp: an exec_command tool call in progress with its
		// terminal, then its output as it comes, then its exit.
		if output {
			a.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": "call_1", "title": "for i in 1 2 3; do echo line $i; sleep 1; done",
				"kind": "execute", "status": "in_progress", "content": []any{map[string]any{"type": "terminal", "terminalId": "call_1"}},
				"_meta": map[string]any{"terminal_info": map[string]any{"terminal_id": "call_1", "cwd": wd}}})
			chunk := func(data string) {
				a.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "call_1",
					"_meta": map[string]any{"terminal_output": map[string]any{"terminal_id": "call_1", "data": data}}})
			}
			chunk("line 1\n")
			waitFor("go1") // the test saw line 1 before line 2 was printed
			chunk("line 2\nline 3 \x1b]52;c;cHduZWQ=\x07")
			chunk("and more\n")
			a.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "call_1", "status": "failed",
				"_meta": map[string]any{"terminal_exit": map[string]any{"terminal_id": "call_1", "exit_code": 3, "signal": nil}}})
		} else {
			a.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": "call_1", "title": "loop", "kind": "execute", "status": "completed",
				"content": []any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": "```sh\nline 1\n```"}}}})
		}
		// claude-agent-acp: a Bash tool call with its terminal, progress
		// beats while it runs, its output, then its exit without a code.
		if delta || output {
			key := "terminal_output"
			if delta {
				key = "terminal_output_delta"
			}
			a.update(map[string]any{"_meta": map[string]any{"claudeCode": map[string]any{"toolName": "Bash"}, "terminal_info": map[string]any{"terminal_id": "toolu_1"}},
				"toolCallId": "toolu_1", "sessionUpdate": "tool_call", "status": "pending", "title": "Terminal", "kind": "execute",
				"content": []any{map[string]any{"type": "terminal", "terminalId": "toolu_1"}}})
			a.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "toolu_1", "status": "in_progress",
				"_meta": map[string]any{"claudeCode": map[string]any{"toolName": "Bash", "toolResponse": map[string]any{"elapsedTimeSeconds": 3}}}})
			a.update(map[string]any{"_meta": map[string]any{key: map[string]any{"terminal_id": "toolu_1", "data": "one\ntwo"}},
				"toolCallId": "toolu_1", "sessionUpdate": "tool_call_update"})
			waitFor("go2")
			a.update(map[string]any{"_meta": map[string]any{key: map[string]any{"terminal_id": "toolu_1", "data": "\nthree"}},
				"toolCallId": "toolu_1", "sessionUpdate": "tool_call_update"})
			a.update(map[string]any{"_meta": map[string]any{"claudeCode": map[string]any{"toolName": "Bash"},
				"terminal_exit": map[string]any{"terminal_id": "toolu_1", "exit_code": nil, "signal": nil}},
				"toolCallId": "toolu_1", "sessionUpdate": "tool_call_update", "status": "completed"})
		}
		a.endTurn(p, "end_turn")
	}
}

// terminalText is the output of one terminal among events, and its exit.
func terminalText(evs []Event, id string) (string, *TerminalOutput) {
	var b strings.Builder
	var exit *TerminalOutput
	for _, ev := range evs {
		if o, ok := ev.(TerminalOutput); ok && o.TerminalID == id {
			b.WriteString(o.Chunk)
			if o.Exited {
				exit = &o
			}
		}
	}
	return b.String(), exit
}

// Output reported through the _meta extension streams into its tool call
// as it comes, sanitized, a partial line held until it ends (as terminal/*
// output is), then the exit status.
func TestMetaTerminalStreams(t *testing.T) {
	c := start(t, "raw-meta-terminal", Config{})
	c.StartPrompt("go")
	var evs []Event
	first := func(id, want string) {
		t.Helper()
		for {
			ev := next(t, c)
			evs = append(evs, ev)
			if o, ok := ev.(TerminalOutput); ok && o.TerminalID == id {
				if o.Chunk != want || o.ToolCallID != id {
					t.Fatalf("first output of %s: %+v, want %q in tool call %s", id, o, want, id)
				}
				return
			}
		}
	}
	first("call_1", "line 1\n")
	must(t, os.WriteFile(filepath.Join(c.Root(), "go1"), nil, 0o644))
	first("toolu_1", "one\n")
	must(t, os.WriteFile(filepath.Join(c.Root(), "go2"), nil, 0o644))
	_, rest := until[TurnEnded](t, c)
	evs = append(evs, rest...)

	out, exit := terminalText(evs, "call_1")
	if want := "line 1\nline 2\nline 3 and more\n"; out != want {
		t.Errorf("codex-style output %q, want %q", out, want)
	}
	if exit == nil || exit.Exit.Code != 3 || exit.ToolCallID != "call_1" {
		t.Errorf("codex-style exit %+v", exit)
	}
	out, exit = terminalText(evs, "toolu_1")
	if out != "one\ntwo\nthree" {
		t.Errorf("claude-style output %q", out)
	}
	if exit == nil || exit.Exit.Err != ErrNoExitStatus || exit.Exit.String() != "ended (no exit status reported)" {
		t.Errorf("claude-style exit %+v", exit)
	}
	var elapsed time.Duration
	var terms []string
	for _, ev := range evs {
		if tc, ok := ev.(ToolCall); ok {
			if tc.meta != nil {
				t.Errorf("the _meta left in the event: %+v", tc)
			}
			if tc.New {
				terms = append(terms, tc.Terminals...)
			}
			elapsed = max(elapsed, tc.Elapsed)
		}
	}
	if elapsed != 3*time.Second {
		t.Errorf("the agent's elapsed time: %v", elapsed)
	}
	if strings.Join(terms, ",") != "call_1,toolu_1" {
		t.Errorf("terminals named by the tool calls: %v", terms)
	}
}

// The rule for terminal_output: output that begins with all that was shown
// is the whole output so far (only its end is new); anything else is a
// chunk. Deltas always append; the exit gives out what was held.
func TestMetaTerminalOutputRule(t *testing.T) {
	c := &Conn{}
	feed := func(meta string) []Event {
		var m metaWire
		must(t, json.Unmarshal([]byte(meta), &m))
		_, out := c.terminalEvents(withMeta(ToolCall{ID: "tc"}, m.meta()))
		return out
	}
	text := func(evs []Event) string {
		s, _ := terminalText(evs, "a")
		return s
	}
	steps := []struct{ meta, want string }{
		{`{"terminal_output":{"terminal_id":"a","data":"1\n"}}`, "1\n"},
		{`{"terminal_output":{"terminal_id":"a","data":"1\n2\n"}}`, "2\n"}, // whole so far
		{`{"terminal_output":{"terminal_id":"a","data":"3\n"}}`, "3\n"},    // a chunk
		{`{"terminal_output":{"terminal_id":"a","data":"1\n2\n3\n4\n"}}`, "4\n"},
		{`{"terminal_output_delta":{"terminal_id":"a","data":"1\n2\n"}}`, "1\n2\n"}, // a delta never loses anything
		{`{"terminal_output":{"terminal_id":"a","data":"x"}}`, ""},                  // held: no line end yet
		{`{"terminal_exit":{"terminal_id":"a","exit_code":null,"signal":"SIGKILL"}}`, "x"},
	}
	for i, s := range steps {
		evs := feed(s.meta)
		if got := text(evs); got != s.want {
			t.Fatalf("step %d %s: %q, want %q", i, s.meta, got, s.want)
		}
		if i == len(steps)-1 {
			last, _ := evs[len(evs)-1].(TerminalOutput)
			if !last.Exited || last.Exit.Signal != "SIGKILL" {
				t.Errorf("exit %+v", last)
			}
		}
	}
	if len(c.metaTerms.byID) != 0 {
		t.Errorf("an exited terminal is still followed: %v", c.metaTerms.byID)
	}
	// Past maxMetaTerminals nothing more is held: output goes out at once.
	for i := range maxMetaTerminals + 5 {
		id := strings.Repeat("t", i+1)
		var m metaWire
		must(t, json.Unmarshal([]byte(`{"terminal_output_delta":{"terminal_id":"`+id+`","data":"partial"}}`), &m))
		_, out := c.terminalEvents(withMeta(ToolCall{ID: "tc"}, m.meta()))
		if i >= maxMetaTerminals && len(out) != 1 {
			t.Fatalf("terminal %d past the limit: %v", i, out)
		}
	}
	if n := len(c.metaTerms.byID); n != maxMetaTerminals {
		t.Errorf("%d terminals followed", n)
	}
}

// One update's output is kept within the output cap: its last bytes, from
// a character boundary.
func TestMetaTerminalCap(t *testing.T) {
	c := &Conn{}
	big := strings.Repeat("é", DefaultOutputLimit) + "\n" // twice the cap in bytes
	b, _ := json.Marshal(map[string]any{"terminal_output_delta": map[string]any{"terminal_id": "a", "data": big}})
	var m metaWire
	must(t, json.Unmarshal(b, &m))
	_, out := c.terminalEvents(withMeta(ToolCall{ID: "tc"}, m.meta()))
	got, _ := terminalText(out, "a")
	if len(got) > DefaultOutputLimit || !strings.HasPrefix(got, "é") || !strings.HasSuffix(got, "é\n") {
		t.Errorf("%d bytes kept, starting %q", len(got), got[:min(4, len(got))])
	}
}

// BenchmarkDecodeMetaUpdate decodes a tool_call_update carrying 1 KiB of a
// command's output in the _meta extension, as claude-agent-acp sends it.
func BenchmarkDecodeMetaUpdate(b *testing.B) {
	data, _ := json.Marshal(strings.Repeat("output line\n", 85))
	params := json.RawMessage(`{"sessionId":"s","update":{"_meta":{"terminal_output_delta":{"terminal_id":"toolu_1","data":` + string(data) +
		`}},"toolCallId":"toolu_1","sessionUpdate":"tool_call_update"}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := decodeUpdate(params); err != nil {
			b.Fatal(err)
		}
	}
}

// A member of another shape in _meta is never a reason to refuse the
// update: the one pass leaves it to the SDK's path, which reads the other
// members of the extension as they are.
func TestMetaOddShapesAreIgnored(t *testing.T) {
	params := json.RawMessage(`{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","_meta":{"claudeCode":{"toolResponse":["text"]},"terminal_info":{"terminal_id":"x"},"terminal_exit":"soon","terminal_output_delta":{"terminal_id":"x","data":"hi\n"}}}}`)
	if _, _, ok := decodeWire(params); ok {
		t.Fatal("the one pass read a toolResponse that is a list")
	}
	ev, sid, err := decodeUpdate(params)
	tc, _ := ev.(ToolCall)
	if err != nil || sid != "s" || tc.meta == nil || tc.meta.info != "x" || tc.meta.delta == nil || tc.meta.delta.data != "hi\n" || tc.meta.exit != nil {
		t.Fatalf("%#v %v", ev, err)
	}
}
