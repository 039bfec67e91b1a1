// Command noui is the floor elicit is measured against: an ACP client on
// the same SDK and the same backpressure that does no UI work at all.
//
// It starts the agent, sends initialize, session/new and one
// session/prompt, answers every form elicitation with the schema's
// defaults, declines URL elicitations, rejects permissions, counts
// session/update notifications, and prints one line at the end:
//
//	noui -elicit ./elicit -p "flood 20000"    # runs ./elicit __demo-agent
//	noui -p "/forms 500" -- my-agent --flag   # any ACP agent
//	updates=20001 forms=0 stop=end_turn
//	noui -ready -- claude-agent-acp           # start-up alone: initialize and session/new
//	· ready in 812 ms
//
// The exit status is 0 when the turn ended with end_turn, 1 otherwise.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/acpconn"
)

// start is when the process started (near enough: package init is tiny).
var start = time.Now()

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("noui", flag.ContinueOnError)
	elicitBin := fs.String("elicit", "elicit", "the elicit binary whose demo agent runs when no agent command follows --")
	prompt := fs.String("p", "hello", "the one prompt to send")
	timeout := fs.Duration("timeout", 2*time.Minute, "give up after this long")
	ready := fs.Bool("ready", false, "stop once the session is open (after session/new), print \"· ready\" and the time from start")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	argv := fs.Args()
	if len(argv) == 0 {
		argv = []string{*elicitBin, "__demo-agent"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	if *ready {
		*prompt = ""
	}
	res, err := session(ctx, argv, *prompt)
	if err != nil {
		fmt.Fprintln(os.Stderr, "noui:", err)
		return 1
	}
	if *ready {
		return 0 // turn printed the line before the agent was stopped
	}
	fmt.Printf("updates=%d forms=%d stop=%s\n", res.updates, res.forms, res.stop)
	if res.stop != acp.StopReasonEndTurn {
		return 1
	}
	return 0
}

// result is what one session counted.
type result struct {
	updates, forms int64
	stop           acp.StopReason
}

// session runs the agent argv for one prompt turn.
func session(ctx context.Context, argv []string, prompt string) (result, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return result{}, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return result{}, err
	}
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	stop := make(chan struct{})
	c := &client{bp: acpconn.NewBackpressure(stdout, stop)}
	conn := acp.NewConnection(c.handle, stdin, c.bp)
	conn.SetLogger(slog.New(slog.DiscardHandler))
	c.bp.Open() // after SetLogger, which races with the SDK reader otherwise
	defer reap(cmd, stdin, stop)

	res, err := turn(ctx, conn, prompt)
	res.updates, res.forms = c.updates.Load(), c.forms.Load()
	return res, err
}

// turn sends initialize, session/new and the prompt.
func turn(ctx context.Context, conn *acp.Connection, prompt string) (result, error) {
	_, err := acp.SendRequest[acp.InitializeResponse](conn, ctx, acp.AgentMethodInitialize, acp.InitializeRequest{
		ProtocolVersion: acp.ProtocolVersionNumber,
		ClientCapabilities: acp.ClientCapabilities{Elicitation: &acp.ElicitationCapabilities{
			Form: &acp.ElicitationFormCapabilities{},
			Url:  &acp.ElicitationUrlCapabilities{},
		}},
		ClientInfo: &acp.Implementation{Name: "noui", Version: "bench"},
	})
	if err != nil {
		return result{}, fmt.Errorf("initialize: %w", err)
	}
	cwd, err := os.Getwd()
	if err != nil {
		return result{}, err
	}
	sess, err := acp.SendRequest[acp.NewSessionResponse](conn, ctx, acp.AgentMethodSessionNew, acp.NewSessionRequest{Cwd: cwd, McpServers: []acp.McpServer{}})
	if err != nil {
		return result{}, fmt.Errorf("session/new: %w", err)
	}
	if prompt == "" { // -ready: the session is open; say so before stopping the agent
		fmt.Printf("· ready in %d ms\n", time.Since(start).Milliseconds())
		return result{}, nil
	}
	resp, err := acp.SendRequest[acp.PromptResponse](conn, ctx, acp.AgentMethodSessionPrompt, acp.PromptRequest{
		SessionId: sess.SessionId,
		Prompt:    []acp.ContentBlock{acp.TextBlock(prompt)},
	})
	if err != nil {
		return result{}, fmt.Errorf("session/prompt: %w", err)
	}
	return result{stop: resp.StopReason}, nil
}

// reap closes the agent's stdin, ends all waiting in the backpressure
// reader, and waits for the agent, killing it if it lingers.
func reap(cmd *exec.Cmd, stdin io.Closer, stop chan struct{}) {
	stdin.Close()
	close(stop)
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
}
