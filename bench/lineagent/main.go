// Command lineagent is the benchmarks' long-reply agent: an ACP agent
// that answers a prompt "lines N" by streaming N agent_message_chunk
// updates as fast as the pipe takes them, each one 60-byte line of text
// ending in a newline, as a real agent's reply arrives (no blank line
// between lines, so nothing splits it into paragraphs).
//
//	elicit -p "lines 20000" -- lineagent
//	noui -p "lines 20000" -- lineagent
//
// "lines N TAG" ends with one line more, "end of TAG." (bench/long.sh
// tells its turns apart by it).
//
// Any other prompt gets one short line. It runs on the same SDK as the
// demo agent, with each notification encoded once up front.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"

	acp "github.com/coder/acp-go-sdk"
)

func main() {
	a := &agent{}
	a.conn = acp.NewConnection(a.handle, os.Stdout, os.Stdin)
	a.conn.SetLogger(slog.New(slog.DiscardHandler))
	<-a.conn.Done()
}

type agent struct {
	conn *acp.Connection
}

func (a *agent) handle(ctx context.Context, method string, params json.RawMessage) (any, *acp.RequestError) {
	switch method {
	case acp.AgentMethodInitialize:
		return acp.InitializeResponse{ProtocolVersion: acp.ProtocolVersionNumber,
			AgentInfo: &acp.Implementation{Name: "lineagent", Version: "bench"}}, nil
	case acp.AgentMethodSessionNew:
		return acp.NewSessionResponse{SessionId: "lines"}, nil
	case acp.AgentMethodSessionPrompt:
		var p acp.PromptRequest
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, acp.NewInvalidParams(map[string]any{"error": err.Error()})
		}
		text := ""
		for _, b := range p.Prompt {
			if b.Text != nil {
				text += b.Text.Text
			}
		}
		if err := a.stream(ctx, p.SessionId, text); err != nil {
			return nil, acp.NewInternalError(map[string]any{"error": err.Error()})
		}
		return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
	case acp.AgentMethodSessionCancel:
		return nil, nil
	}
	return nil, acp.NewMethodNotFound(method)
}

// line returns the i-th line: 59 bytes of text and a newline (60 in all).
func line(i int) string {
	return fmt.Sprintf("%07d lorem ipsum dolor sit amet, consectetur adipiscing.\n", i)
}

// stream sends the reply to prompt: n lines for "lines N", else one line.
// "lines N TAG" sends one more, "end of TAG.", so that a harness running
// many turns in one session can tell this turn's end from the last one's.
func (a *agent) stream(ctx context.Context, sid acp.SessionId, prompt string) error {
	n, tag := 1, ""
	if f := strings.Fields(prompt); (len(f) == 2 || len(f) == 3) && f[0] == "lines" {
		v, err := strconv.Atoi(f[1])
		if err != nil || v < 1 {
			return fmt.Errorf("lines N: N must be a positive number, got %q", f[1])
		}
		n = v
		if len(f) == 3 {
			tag = f[2]
		}
	}
	const distinct = 1000 // lines encoded up front, cycled
	encoded := make([]json.RawMessage, min(n, distinct))
	for i := range encoded {
		b, err := json.Marshal(acp.SessionNotification{SessionId: sid, Update: acp.UpdateAgentMessageText(line(i))})
		if err != nil {
			return err
		}
		encoded[i] = b
	}
	for i := range n {
		if err := a.conn.SendNotification(ctx, acp.ClientMethodSessionUpdate, encoded[i%len(encoded)]); err != nil {
			return err
		}
	}
	if tag == "" {
		return nil
	}
	return a.conn.SendNotification(ctx, acp.ClientMethodSessionUpdate,
		acp.SessionNotification{SessionId: sid, Update: acp.UpdateAgentMessageText("end of " + tag + ".\n")})
}
