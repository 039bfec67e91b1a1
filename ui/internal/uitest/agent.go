// Package uitest holds what the tests of the three front ends share: the
// test binary acting as the demo agent, as scripted agents and as a sign-in
// command, and the recording browser opener. Only tests import it.
package uitest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/demoagent"
	"github.com/elicit-dev/elicit/internal/testkit"
)

// The test binary doubles as the demo agent, so the model talks to a real
// agent process over real pipes.
// Main is the body of TestMain in every front end's tests: the test
// binary doubles as the demo agent, the scripted agents and a terminal
// sign-in command, so the front ends talk to real processes over real
// pipes.
func Main(m *testing.M) {
	for _, a := range os.Args[1:] {
		if a == LoginFlag {
			runLogin() // a terminal sign-in command (agents_test.go)
		}
	}
	if name, ok := strings.CutPrefix(os.Getenv("ELICIT_UI_TEST_AGENT"), "script:"); ok {
		runScript(name)
	}
	if os.Getenv(MCPServerEnv) != "" {
		runMCPServer()
	}
	if os.Getenv("ELICIT_UI_TEST_AGENT") == "demo" {
		if err := demoagent.Run(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	testkit.SkipRaceExitSleep()
	os.Exit(m.Run())
}

// DemoConfig runs the test binary as the demo agent.
func DemoConfig(t *testing.T) acpconn.Config {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return acpconn.Config{Argv: []string{self, "-test.run=^$"}, Env: append(os.Environ(), "ELICIT_UI_TEST_AGENT=demo"), Dir: t.TempDir()}
}

// Recorder is the fake browser opener: it records every URL it was asked
// to open and opens nothing.
type Recorder struct {
	mu   sync.Mutex
	urls []string
	wake chan struct{} // closed and replaced by each Open
}

// Open records u.
func (r *Recorder) Open(u string) error {
	r.mu.Lock()
	r.urls = append(r.urls, u)
	if r.wake != nil {
		close(r.wake)
		r.wake = nil
	}
	r.mu.Unlock()
	return nil
}

// WaitOpened waits until the recorder was asked to open n URLs, woken by
// each Open; show says what the test saw if that never comes (see
// testkit.Until).
func (r *Recorder) WaitOpened(t testing.TB, n int, show func() string) {
	t.Helper()
	testkit.Until(t, fmt.Sprintf("%d URLs opened", n), func() bool { return len(r.Opened()) >= n }, r.changed, show)
}

// changed returns a channel closed by the next Open.
func (r *Recorder) changed() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.wake == nil {
		r.wake = make(chan struct{})
	}
	return r.wake
}

// Opened lists the URLs it was asked to open.
func (r *Recorder) Opened() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.urls...)
}

// RawAgent is a scripted agent speaking raw JSON-RPC lines over the test
// binary's stdio, shaped after the real agents (see the agents survey):
// the test binary runs as one when ELICIT_UI_TEST_AGENT=script:NAME.
type RawAgent struct {
	In     *bufio.Reader
	Out    *bufio.Writer
	nextID int
	// Caps are the client's capabilities, once Serve read initialize.
	Caps map[string]any
}

// Send is part of the scripted agent's protocol kit.
// Send writes one JSON-RPC message.
func (a *RawAgent) Send(v any) {
	b, _ := json.Marshal(v)
	a.Out.Write(append(b, '\n'))
	a.Out.Flush()
}

// Recv is part of the scripted agent's protocol kit.
// Recv reads one message; the agent exits at end of input.
func (a *RawAgent) Recv() map[string]any {
	line, err := a.In.ReadBytes('\n')
	if err != nil {
		os.Exit(0)
	}
	var m map[string]any
	if json.Unmarshal(line, &m) != nil {
		os.Exit(4)
	}
	return m
}

// Reply is part of the scripted agent's protocol kit.
// Reply answers request m with result.
func (a *RawAgent) Reply(m map[string]any, result any) {
	a.Send(map[string]any{"jsonrpc": "2.0", "id": m["id"], "result": result})
}

// Fail is part of the scripted agent's protocol kit.
// Fail answers request m with an error.
func (a *RawAgent) Fail(m map[string]any, code int, msg string, data any) {
	e := map[string]any{"code": code, "message": msg}
	if data != nil {
		e["data"] = data
	}
	a.Send(map[string]any{"jsonrpc": "2.0", "id": m["id"], "error": e})
}

// Request sends a request and waits for its answer.
func (a *RawAgent) Request(method string, params any) map[string]any {
	a.nextID++
	id := a.nextID
	a.Send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	for {
		m := a.Recv()
		if v, ok := m["id"].(float64); ok && int(v) == id && m["method"] == nil {
			return m
		}
	}
}

// Update is part of the scripted agent's protocol kit.
// Update sends a session/update.
func (a *RawAgent) Update(sid string, u map[string]any) {
	a.Send(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": sid, "update": u}})
}

// Say is part of the scripted agent's protocol kit.
// Say sends an agent_message_chunk.
func (a *RawAgent) Say(sid, msgID, text string) {
	a.Update(sid, map[string]any{"sessionUpdate": "agent_message_chunk", "messageId": msgID, "content": map[string]any{"type": "text", "text": text}})
}

// Serve answers initialize with init, then hands every message to h.
func (a *RawAgent) Serve(init map[string]any, h func(m map[string]any, p map[string]any)) {
	for {
		m := a.Recv()
		p, _ := m["params"].(map[string]any)
		if m["method"] == "initialize" {
			a.Caps, _ = p["clientCapabilities"].(map[string]any)
			base := map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{}, "authMethods": []any{}, "agentInfo": map[string]any{"name": "scripted"}}
			for k, v := range init {
				base[k] = v
			}
			a.Reply(m, base)
			continue
		}
		if m["method"] == nil {
			continue
		}
		h(m, p)
	}
}

// ServeTurns is Serve for a script with one session ("s1") whose turns
// are all it does: turn handles each session/prompt, its reply included.
func (a *RawAgent) ServeTurns(turn func(m, p map[string]any)) {
	a.Serve(nil, func(m, p map[string]any) {
		switch m["method"] {
		case "session/new":
			a.Reply(m, map[string]any{"sessionId": "s1"})
		case "session/prompt":
			turn(m, p)
		}
	})
}

// Scripts are the scripted agents, by name: a test file adds its own in
// an init function.
var Scripts = map[string]func(a *RawAgent){}

// runScript runs the script named in the environment and exits.
func runScript(name string) {
	s := Scripts[name]
	if s == nil {
		fmt.Fprintln(os.Stderr, "no script", name)
		os.Exit(3)
	}
	s(&RawAgent{In: bufio.NewReaderSize(os.Stdin, 1<<20), Out: bufio.NewWriter(os.Stdout)})
	os.Exit(0)
}

// ScriptConfig runs the named script as the agent, with extra environment.
func ScriptConfig(t *testing.T, name string, env ...string) acpconn.Config {
	cfg := DemoConfig(t)
	cfg.Env = append(append(os.Environ(), "ELICIT_UI_TEST_AGENT=script:"+name), env...)
	return cfg
}

// LoginFlag makes the test binary act as a terminal sign-in command: it
// writes the file named by ELICIT_UI_TEST_MARKER and exits.
const LoginFlag = "--elicit-test-login"

func runLogin() {
	if err := os.WriteFile(os.Getenv("ELICIT_UI_TEST_MARKER"), []byte(LoginMarker()), 0o600); err != nil {
		os.Exit(7)
	}
	os.Exit(0)
}

// WrappedEnv is set by the wrappers the sign-in tests start the agent
// through; the sign-in command notes it, to show it ran through the same
// wrapper.
const WrappedEnv = "ELICIT_UI_TEST_WRAPPED"

// LoginMarker is what the sign-in command writes: that it ran, through
// which wrapper, with which arguments.
func LoginMarker() string {
	return "signed in; wrapped=" + os.Getenv(WrappedEnv) + "; args=" + strings.Join(os.Args[1:], " ")
}

// Marker is what the sign-in command wrote ("" when it did not run), for
// an agent run with env (see SignInEnv).
func Marker(env []string) string {
	for _, kv := range env {
		if p, ok := strings.CutPrefix(kv, "ELICIT_UI_TEST_MARKER="); ok {
			b, _ := os.ReadFile(p)
			return string(b)
		}
	}
	return ""
}

// SignedIn says whether the terminal sign-in command ran.
func SignedIn() bool {
	_, err := os.Stat(os.Getenv("ELICIT_UI_TEST_MARKER"))
	return err == nil
}
