package demoagent

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// waitLimit only keeps a broken test from hanging; no test asserts on how long anything takes.
var waitLimit = testkit.Hang

// testClient is a minimal ACP client on the SDK's raw connection, talking to the demo agent over
// real pipes. It records every message and answers requests through replaceable functions.
type testClient struct {
	t    *testing.T
	conn *acp.Connection
	sid  acp.SessionId
	init acp.InitializeResponse
	sess acp.NewSessionResponse

	mu           sync.Mutex
	updates      []acp.SessionNotification
	elicitations []json.RawMessage
	permissions  []acp.RequestPermissionRequest
	onElicit     func(params json.RawMessage) (any, *acp.RequestError)
	onPermission func(p acp.RequestPermissionRequest) (any, *acp.RequestError)

	updated   chan struct{} // signalled (without blocking) on every session/update
	completes chan string   // elicitation/complete ids, in order
	agentDone chan error    // RunWith's result
	closeIn   func()        // closes the agent's stdin
	closeOut  func()        // closes the agent's stdout
}

// clientCaps is the elicitation capability a test client declares.
type clientCaps struct{ form, url bool }

var bothModes = clientCaps{form: true, url: true}

// startAgent runs the demo agent in-process over two io.Pipes, initializes it with caps and opens a session.
func startAgent(t *testing.T, caps clientCaps, opts Options) *testClient {
	t.Helper()
	toAgentR, toAgentW := io.Pipe()
	fromAgentR, fromAgentW := io.Pipe()
	c := &testClient{
		t: t, updated: make(chan struct{}, 1), completes: make(chan string, 16), agentDone: make(chan error, 1),
		onElicit:     acceptDefaults,
		onPermission: pickOption(optAllowOnce),
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	go func() {
		err := RunWith(context.Background(), toAgentR, fromAgentW, opts)
		_ = fromAgentW.Close()
		c.agentDone <- err
	}()
	c.closeIn = func() { _ = toAgentW.Close() }
	c.closeOut = func() { _ = fromAgentW.Close() }
	gate := make(chan struct{})
	c.conn = acp.NewConnection(c.handle, toAgentW, &gatedReader{r: fromAgentR, open: gate})
	c.conn.SetLogger(slog.New(slog.DiscardHandler))
	close(gate)
	t.Cleanup(func() {
		c.closeIn()
		select {
		case <-c.agentDone:
		case <-time.After(waitLimit):
			t.Error("the agent did not return after its stdin closed")
		}
	})

	ctx := context.Background()
	var ec *acp.ElicitationCapabilities
	if caps.form || caps.url {
		ec = &acp.ElicitationCapabilities{}
		if caps.form {
			ec.Form = &acp.ElicitationFormCapabilities{}
		}
		if caps.url {
			ec.Url = &acp.ElicitationUrlCapabilities{}
		}
	}
	var err error
	c.init, err = acp.SendRequest[acp.InitializeResponse](c.conn, ctx, acp.AgentMethodInitialize, acp.InitializeRequest{
		ProtocolVersion:    acp.ProtocolVersionNumber,
		ClientCapabilities: acp.ClientCapabilities{Elicitation: ec},
	})
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	c.sess, err = acp.SendRequest[acp.NewSessionResponse](c.conn, ctx, acp.AgentMethodSessionNew,
		acp.NewSessionRequest{Cwd: "/work/project", McpServers: []acp.McpServer{}})
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	c.sid = c.sess.SessionId
	return c
}

func (c *testClient) handle(_ context.Context, method string, params json.RawMessage) (any, *acp.RequestError) {
	switch method {
	case acp.ClientMethodSessionUpdate:
		var n acp.SessionNotification
		if err := json.Unmarshal(params, &n); err != nil {
			c.t.Errorf("bad session/update %s: %v", params, err)
			return nil, nil
		}
		c.mu.Lock()
		c.updates = append(c.updates, n)
		c.mu.Unlock()
		select {
		case c.updated <- struct{}{}:
		default:
		}
		return nil, nil
	case acp.ClientMethodSessionRequestPermission:
		var p acp.RequestPermissionRequest
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, acp.NewInvalidParams(err.Error())
		}
		c.mu.Lock()
		c.permissions = append(c.permissions, p)
		answer := c.onPermission
		c.mu.Unlock()
		return answer(p)
	case acp.ClientMethodElicitationCreate:
		raw := append(json.RawMessage(nil), params...)
		c.mu.Lock()
		c.elicitations = append(c.elicitations, raw)
		answer := c.onElicit
		c.mu.Unlock()
		return answer(raw)
	case acp.ClientMethodElicitationComplete:
		var n acp.UnstableCompleteElicitationNotification
		if err := json.Unmarshal(params, &n); err != nil {
			c.t.Errorf("bad elicitation/complete %s: %v", params, err)
		}
		c.completes <- string(n.ElicitationId)
		return nil, nil
	default:
		return nil, acp.NewMethodNotFound(method)
	}
}

// prompt sends one prompt and returns its response.
func (c *testClient) prompt(text string) (acp.PromptResponse, error) {
	return acp.SendRequest[acp.PromptResponse](c.conn, context.Background(), acp.AgentMethodSessionPrompt,
		acp.PromptRequest{SessionId: c.sid, Prompt: []acp.ContentBlock{acp.TextBlock(text)}})
}

// mustPrompt sends a prompt and fails the test unless the turn ends with want.
func (c *testClient) mustPrompt(text string, want acp.StopReason) {
	c.t.Helper()
	resp, err := c.prompt(text)
	if err != nil {
		c.t.Fatalf("prompt %q: %v", text, err)
	}
	if resp.StopReason != want {
		c.t.Fatalf("prompt %q: stopReason %q, want %q", text, resp.StopReason, want)
	}
}

// setInstant switches the session to the instant pace, so tests do not wait on streaming pauses.
func (c *testClient) setInstant() {
	c.t.Helper()
	_, err := acp.SendRequest[acp.SetSessionConfigOptionResponse](c.conn, context.Background(),
		acp.AgentMethodSessionSetConfigOption, acp.SetSessionConfigOptionRequest{ValueId: &acp.SetSessionConfigOptionValueId{
			SessionId: c.sid, ConfigId: optionPace, Value: paceInstant,
		}})
	if err != nil {
		c.t.Fatalf("set pace: %v", err)
	}
}

// snapshot returns copies of what the client has recorded so far.
func (c *testClient) snapshot() (updates []acp.SessionNotification, elicitations []json.RawMessage, permissions []acp.RequestPermissionRequest) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append(updates, c.updates...), append(elicitations, c.elicitations...), append(permissions, c.permissions...)
}

// reset forgets what was recorded.
func (c *testClient) reset() {
	c.mu.Lock()
	c.updates, c.elicitations, c.permissions = nil, nil, nil
	c.mu.Unlock()
}

// messageText joins the agent_message_chunk texts recorded so far.
func (c *testClient) messageText() string {
	updates, _, _ := c.snapshot()
	var b bytes.Buffer
	for _, u := range updates {
		if m := u.Update.AgentMessageChunk; m != nil && m.Content.Text != nil {
			b.WriteString(m.Content.Text.Text)
		}
	}
	return b.String()
}

// acceptDefaults answers a form with the defaults of its schema and a URL request with accept.
func acceptDefaults(params json.RawMessage) (any, *acp.RequestError) {
	var p struct {
		Mode   string `json:"mode"`
		Schema struct {
			Properties map[string]struct {
				Default json.RawMessage `json:"default"`
			} `json:"properties"`
		} `json:"requestedSchema"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, acp.NewInvalidParams(err.Error())
	}
	if p.Mode == "url" {
		return map[string]any{"action": actionAccept}, nil
	}
	content := map[string]json.RawMessage{}
	for k, prop := range p.Schema.Properties {
		if prop.Default != nil {
			content[k] = prop.Default
		}
	}
	return map[string]any{"action": actionAccept, "content": content}, nil
}

// answerAction answers every elicitation with the bare action.
func answerAction(action string) func(json.RawMessage) (any, *acp.RequestError) {
	return func(json.RawMessage) (any, *acp.RequestError) { return map[string]any{"action": action}, nil }
}

// pickOption answers every permission request with the option id.
func pickOption(id acp.PermissionOptionId) func(acp.RequestPermissionRequest) (any, *acp.RequestError) {
	return func(acp.RequestPermissionRequest) (any, *acp.RequestError) {
		return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected(id)}, nil
	}
}
