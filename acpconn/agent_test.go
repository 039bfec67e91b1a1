package acpconn

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/demoagent"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
)

// The test binary doubles as the agent: with ACPCONN_TEST_AGENT set it runs
// the demo agent or one of the scripted agents below, on real stdio pipes.
func TestMain(m *testing.M) {
	if kind := os.Getenv("ACPCONN_TEST_CHILD"); kind != "" {
		testChild(kind)
	}
	switch name := os.Getenv("ACPCONN_TEST_AGENT"); {
	case name == "demo":
		if err := demoagent.Run(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case name != "":
		script := scripts[name]
		if script == nil {
			fmt.Fprintln(os.Stderr, "no script", name)
			os.Exit(3)
		}
		a := &scripted{in: bufio.NewReaderSize(os.Stdin, 1<<20), out: bufio.NewWriter(os.Stdout)}
		if os.Getenv("ACPCONN_SPAWN") != "" {
			spawnChild()
		}
		if !noHandshake[name] && !strings.HasPrefix(name, "raw-") { // raw- scripts do their own handshake
			a.handshake()
		}
		script(a)
		a.out.Flush()
		os.Exit(0)
	}
	testkit.SkipRaceExitSleep() // the children this binary starts exit at once
	code := m.Run()
	removeBinary()
	os.Exit(code)
}

// start runs the named agent as a subprocess of the test binary.
func start(t *testing.T, agent string, cfg Config) *Conn {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Argv = []string{self, "-test.run=^$"}
	cfg.Env = append(append(os.Environ(), cfg.Env...), "ACPCONN_TEST_AGENT="+agent)
	if cfg.Dir == "" {
		cfg.Dir = t.TempDir()
	}
	if cfg.StartTimeout == 0 { // a start is slow on a busy machine, never late
		cfg.StartTimeout = testkit.Hang
	}
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	c, err := Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if agent == "auth" || noSession[agent] {
		return c
	}
	if _, err := c.NewSession(ctx); err != nil {
		t.Fatal(err)
	}
	return c
}

// next returns the next event; it fails the test only when none comes
// before testkit.Hang (a hang).
func next(t *testing.T, c *Conn) Event {
	t.Helper()
	select {
	case ev := <-c.Events():
		return ev
	case <-time.After(testkit.Hang):
		t.Fatalf("no event after %v: it hangs", testkit.Hang)
	}
	return nil
}

// until collects events until one of type T arrives, and returns both.
func until[T Event](t *testing.T, c *Conn) (T, []Event) {
	t.Helper()
	var seen []Event
	for {
		ev := next(t, c)
		if v, ok := ev.(T); ok {
			return v, seen
		}
		seen = append(seen, ev)
	}
}

// asked waits for the next question of kind k, and returns it with the
// events before it.
func asked(t *testing.T, c *Conn, k question.Kind) (*question.Question, []Event) {
	t.Helper()
	var seen []Event
	for {
		ev := next(t, c)
		if a, ok := ev.(question.Asked); ok && a.Q.Kind == k {
			return a.Q, seen
		}
		seen = append(seen, ev)
	}
}

// pick is the outcome that chooses a permission's option id ("": none,
// cancelled).
func pick(id string) question.Outcome {
	if id == "" {
		return question.Outcome{Action: question.Cancel}
	}
	return question.Outcome{Action: question.Accept, Option: id}
}

// agentText joins the agent message chunks among events.
func agentText(evs []Event) string {
	var b strings.Builder
	for _, ev := range evs {
		if mc, ok := ev.(MessageChunk); ok && mc.Role == RoleAgent {
			b.WriteString(mc.Text)
		}
	}
	return b.String()
}

// scripted is a hand-driven agent speaking raw JSON-RPC lines, for what a
// well-behaved SDK agent would never send.
type scripted struct {
	in     *bufio.Reader
	out    *bufio.Writer
	nextID int
	seen   map[string]bool // methods of messages skipped while waiting
}

func (a *scripted) send(v any) {
	b, _ := json.Marshal(v)
	a.out.Write(b)
	a.out.WriteByte('\n')
	a.out.Flush()
}

func (a *scripted) raw(s string) {
	a.out.WriteString(s + "\n")
	a.out.Flush()
}

// recv reads the next message from the client.
func (a *scripted) recv() map[string]any {
	line, err := a.in.ReadBytes('\n')
	if err != nil {
		os.Exit(0)
	}
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		fmt.Fprintln(os.Stderr, "bad line from client:", string(line))
		os.Exit(4)
	}
	if meth, ok := m["method"].(string); ok {
		if a.seen == nil {
			a.seen = map[string]bool{}
		}
		a.seen[meth] = true
	}
	return m
}

// recvMethod reads until a message with that method arrives.
func (a *scripted) recvMethod(method string) map[string]any {
	for {
		if m := a.recv(); m["method"] == method {
			return m
		}
	}
}

func (a *scripted) reply(req map[string]any, result any) {
	a.send(map[string]any{"jsonrpc": "2.0", "id": req["id"], "result": result})
}

// request sends a request and returns the client's response.
func (a *scripted) request(method string, params any) map[string]any {
	a.nextID++
	id := a.nextID
	a.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	for {
		m := a.recv()
		if v, ok := m["id"].(float64); ok && int(v) == id && m["method"] == nil {
			return m
		}
	}
}

func (a *scripted) update(u map[string]any) {
	a.send(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": "s1", "update": u}})
}

func (a *scripted) say(text string) {
	a.update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": text}})
}

// handshake answers initialize and session/new.
func (a *scripted) handshake() {
	init := a.recvMethod("initialize")
	a.reply(init, map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{}, "authMethods": []any{},
		"agentInfo": map[string]any{"name": "scripted", "version": "1"}})
	a.reply(a.recvMethod("session/new"), map[string]any{"sessionId": "s1"})
}

// prompt waits for session/prompt and returns it so the script can answer.
func (a *scripted) prompt() map[string]any { return a.recvMethod("session/prompt") }

func (a *scripted) endTurn(p map[string]any, reason string) {
	a.reply(p, map[string]any{"stopReason": reason})
}

// scripts are the scripted agents, by name.
var scripts = map[string]func(a *scripted){}

// noHandshake names the scripts that answer initialize themselves (or
// never); noSession those that start takes no session for.
var (
	noHandshake = map[string]bool{"auth": true, "silent-start": true, "flood-before-init": true, "slow-session": true, "odd-ids": true}
	noSession   = map[string]bool{"slow-session": true, "odd-ids": true}
)

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// The elicit binary the end-to-end tests build (see elicitBinary).
var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// removeBinary is called by TestMain after the run.
func removeBinary() {
	if binDir != "" {
		os.RemoveAll(binDir)
	}
}
