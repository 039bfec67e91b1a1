package acpconn

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/acpserve"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
)

func init() {
	// fs-probe says which capabilities it was given and what fs/* and
	// terminal/* got it.
	scripts["fs-probe"] = func(a *scripted) {
		p := a.prompt()
		read := a.request("fs/read_text_file", map[string]any{"sessionId": "s1", "path": filepath.Join(os.Getenv("PROBE_DIR"), "secret.txt")})
		term := a.request("terminal/create", map[string]any{"sessionId": "s1", "command": "true"})
		a.say(fmt.Sprintf("read=%s term=%s", rpcOutcome(read), rpcOutcome(term)))
		a.endTurn(p, "end_turn")
	}
	// resumable offers session/resume and answers it for any session.
	noHandshake["resumable"] = true
	scripts["resumable"] = func(a *scripted) {
		init := a.recvMethod("initialize")
		a.reply(init, map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{
			"sessionCapabilities": map[string]any{"resume": map[string]any{}}}, "authMethods": []any{},
			"agentInfo": map[string]any{"name": "resumable", "version": "1"}})
		for {
			m := a.recv()
			switch m["method"] {
			case "session/new":
				a.reply(m, map[string]any{"sessionId": "s1"})
			case "session/resume":
				a.reply(m, map[string]any{})
			case "session/prompt":
				a.say("still here")
				a.endTurn(m, "end_turn")
			}
		}
	}
}

// rpcOutcome is a response's result, or its error code.
func rpcOutcome(resp map[string]any) string {
	if e, ok := resp["error"].(map[string]any); ok {
		return fmt.Sprint(e["code"])
	}
	b, _ := json.Marshal(resp["result"])
	return string(b)
}

// serveRemote runs agent behind an in-process server of the transport, each
// connection a scripted agent of the test binary on real pipes, and
// returns the server and its endpoint.
func serveRemote(t *testing.T, agent string, env ...string) (*acpserve.Server, string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s := &acpserve.Server{NewAgent: func() (acpserve.Agent, error) {
		return acpserve.Command([]string{self, "-test.run=^$"}, append(append(os.Environ(), env...), "ACPCONN_TEST_AGENT="+agent))
	}}
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		s.Drop()
		ts.Close()
	})
	return s, ts.URL + "/acp"
}

// startRemoteConn connects to url and opens a session.
func startRemoteConn(t *testing.T, r Remote, cfg Config) *Conn {
	t.Helper()
	cfg.Remote = &r
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
	if _, err := c.NewSession(ctx); err != nil {
		t.Fatal(err)
	}
	return c
}

// transports are the ways to one server: each forced, and the default
// against a server without WebSocket (the fallback).
var transports = []struct {
	name, force, want string
	noWS              bool
}{
	{"ws", TransportWS, "WebSocket", false},
	{"http", TransportHTTP, "HTTP+SSE", false},
	{"fallback", "", "HTTP+SSE", true},
}

// The demo agent's questions all at once (a form, a URL and a permission),
// answered over each transport: requests on a session's stream, their
// answers posted to it.
func TestRemoteQuestions(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			s, url := serveRemote(t, "demo")
			s.NoWebSocket = tr.noWS
			c := startRemoteConn(t, Remote{URL: url, Transport: tr.force}, Config{})
			if c.Transport() != tr.want {
				t.Errorf("transport %q, want %q", c.Transport(), tr.want)
			}
			c.StartPrompt("/all")
			kinds := map[string]bool{}
			for {
				switch ev := next(t, c).(type) {
				case question.Asked:
					kinds[ev.Q.Kind.String()] = true
					if ev.Q.Kind == question.Permission {
						c.Answer(ev.Q, pick(ev.Q.Options[0].ID))
					} else if !c.Answer(ev.Q, question.Outcome{Action: question.Decline}) {
						t.Error("answer not taken")
					}
				case TurnEnded:
					if ev.Err != nil {
						t.Fatal(ev.Err)
					}
					if !kinds["form"] || !kinds["URL"] || !kinds["permission"] {
						t.Errorf("questions seen: %v", kinds)
					}
					return
				}
			}
		})
	}
}

// A flood of 20,000 chunks arrives whole over each transport, through the
// same backpressure as stdio.
func TestRemoteFlood(t *testing.T) {
	for _, tr := range transports[:2] {
		t.Run(tr.name, func(t *testing.T) {
			_, url := serveRemote(t, "flood")
			c := startRemoteConn(t, Remote{URL: url, Transport: tr.force}, Config{})
			c.StartPrompt("go")
			waitBackedUp(t, c) // the reader is slow to start: every buffer fills
			n := 0
			for {
				switch ev := next(t, c).(type) {
				case MessageChunk:
					n++
				case TurnEnded:
					if ev.Err != nil || n != 20000 {
						t.Fatalf("%d chunks, %v", n, ev.Err)
					}
					return
				}
			}
		})
	}
}

// A message over MaxLineBytes ends the session with the same error as on
// stdio, over each transport.
func TestRemoteMessageOverLimit(t *testing.T) {
	for _, tr := range transports[:2] {
		t.Run(tr.name, func(t *testing.T) {
			_, url := serveRemote(t, "huge-line")
			c := startRemoteConn(t, Remote{URL: url, Transport: tr.force}, Config{})
			c.StartPrompt("go")
			exited, _ := until[AgentExited](t, c)
			if !strings.Contains(exited.Reason, "over 10 MiB") {
				t.Errorf("reason %q (exit: %v)", exited.Reason, exited.Exit)
			}
			if exited.Exit.Lost { // a lost connection is worth a reconnect; the limit is not
				t.Errorf("the message over the limit ended the link as lost: %v", exited.Exit)
			}
		})
	}
}

// A remote agent is given neither fs/* nor terminal/* unless allowed: it
// is not told of them, and asking anyway is refused.
func TestRemoteGetsNoFilesUnlessAllowed(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("s3cret"), 0o600))
	for _, allow := range []bool{false, true} {
		_, url := serveRemote(t, "fs-probe", "PROBE_DIR="+dir)
		trace := &testkit.Buffer{}
		c := startRemoteConn(t, Remote{URL: url, AllowFS: allow}, Config{Dir: dir, Log: trace})
		c.StartPrompt("go")
		var evs []Event
		for {
			ev := next(t, c)
			if _, ok := ev.(TurnEnded); ok {
				break
			}
			evs = append(evs, ev)
		}
		text := agentText(evs)
		init := trace.String()[:strings.Index(trace.String(), "initialize")+600]
		if allow {
			if !strings.Contains(text, `s3cret`) || !strings.Contains(text, "term=-32601") {
				t.Errorf("allowed fs: %q", text)
			}
			continue
		}
		if !strings.Contains(text, "read=-32601") || !strings.Contains(text, "term=-32601") || strings.Contains(text, "s3cret") {
			t.Errorf("fs not allowed: %q", text)
		}
		if strings.Contains(init, `"readTextFile":true`) || strings.Contains(init, `"terminal":true`) || !strings.Contains(init, `"fs":{}`) {
			t.Errorf("initialize declared: %s", init)
		}
	}
}

// A dropped connection is reported as lost (so a front end reconnects),
// and the session is taken up again on a new connection.
func TestRemoteDropThenResume(t *testing.T) {
	for _, tr := range transports[:2] {
		t.Run(tr.name, func(t *testing.T) {
			s, url := serveRemote(t, "resumable")
			r := Remote{URL: url, Transport: tr.force}
			c := startRemoteConn(t, r, Config{})
			s.Drop()
			exited, _ := until[AgentExited](t, c)
			if !exited.Exit.Lost || !exited.Exit.Remote {
				t.Fatalf("exit %+v, want lost", exited.Exit)
			}
			ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
			defer cancel()
			cfg := Config{Dir: t.TempDir(), Remote: &r}
			c2, err := Start(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer c2.Close()
			if _, replayed, err := c2.OpenSession(ctx, "s1", false); err != nil || replayed {
				t.Fatalf("resume: %v (replayed %v)", err, replayed)
			}
			c2.StartPrompt("again")
			_, evs := until[TurnEnded](t, c2)
			if agentText(evs) != "still here" {
				t.Errorf("reply %q", agentText(evs))
			}
		})
	}
}

// Over TLS the server's certificate is checked: a private CA's server is
// refused until --ca names the CA, over each transport.
func TestRemoteTLSWithPrivateCA(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s := &acpserve.Server{NewAgent: func() (acpserve.Agent, error) {
		return acpserve.Command([]string{self, "-test.run=^$"}, append(os.Environ(), "ACPCONN_TEST_AGENT=demo"))
	}}
	ts := httptest.NewUnstartedServer(s)
	ts.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes are the point
	ts.StartTLS()
	defer ts.Close()
	defer s.Drop()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	must(t, os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ts.Certificate().Raw}), 0o600))
	for _, tr := range transports[:2] {
		ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
		_, err := Start(ctx, Config{Dir: t.TempDir(), Remote: &Remote{URL: ts.URL + "/acp", Transport: tr.force}})
		if err == nil || !strings.Contains(err.Error(), "certificate") || !strings.Contains(err.Error(), "--ca FILE") {
			t.Errorf("%s without --ca: %v", tr.name, err)
		}
		c, err := Start(ctx, Config{Dir: t.TempDir(), Remote: &Remote{URL: ts.URL + "/acp", Transport: tr.force, CAFile: ca}})
		if err != nil {
			t.Fatalf("%s with --ca: %v", tr.name, err)
		}
		if c.Transport() != tr.want {
			t.Errorf("%s: transport %s", tr.name, c.Transport())
		}
		c.Close()
		cancel()
	}
	if _, err := Start(context.Background(), Config{Dir: t.TempDir(), Remote: &Remote{URL: ts.URL, CAFile: filepath.Join(t.TempDir(), "none.pem")}}); err == nil || !strings.Contains(err.Error(), "--ca") {
		t.Errorf("a missing --ca file: %v", err)
	}
}
