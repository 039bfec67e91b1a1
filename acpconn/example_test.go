package acpconn_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/urlconsent"
)

// demoAgent is the agent these examples start: the test binary itself,
// which runs elicit's built-in demo agent on its stdio (see TestMain). A
// program names its agent's command instead, as ExampleConn_Serve does.
func demoAgent() acpconn.Config {
	self, err := os.Executable()
	if err != nil {
		log.Fatal(err)
	}
	return acpconn.Config{Argv: []string{self, "-test.run=^$"}, Env: append(os.Environ(), "ACPCONN_TEST_AGENT=demo")}
}

// unattended answers for nobody at the keyboard: every form with its
// defaults (forms.Fill), no URL and no permission (cancelled: nobody
// chose, and a decline would tell the agent that a person said no). As an EventHandler it
// also keeps the agent's reply.
type unattended struct{ reply strings.Builder }

func (*unattended) Elicit(_ context.Context, req acpconn.ElicitationRequest) (string, map[string]any) {
	if req.Mode != "form" {
		return "cancel", nil
	}
	out, _ := forms.Fill(req.Schema, nil) // cancelled, with the reason, when a required field has no default
	return string(out.Action), out.Content
}

func (*unattended) RequestPermission(context.Context, acpconn.PermissionRequest) string {
	return "" // cancelled
}

func (u *unattended) HandleEvent(ev acpconn.Event) {
	if m, ok := ev.(acpconn.MessageChunk); ok && m.Role == acpconn.RoleAgent {
		u.reply.WriteString(m.Text)
	}
}

// A client in ten lines: start the agent, serve its questions with a
// Handler, open a session and send a prompt. The demo agent's "/forms 3"
// asks three forms in a row and says what it received.
func Example() {
	ctx := context.Background()
	c, err := acpconn.Start(ctx, demoAgent()) // acpconn.Config{Argv: []string{"my-agent"}}
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	h := &unattended{}
	go c.Serve(ctx, h)
	if _, err := c.NewSession(ctx); err != nil {
		log.Fatal(err)
	}
	end, err := c.Prompt(ctx, "/forms 3")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(end.StopReason, ": ", h.reply.String())
	// Output:
	// end_turn: Accepted 3 of 3 forms (declined 0, cancelled 0, errors 0).
}

// terminal asks the person at this terminal: a form with forms.Run, a URL
// with urlconsent.Run (the browser starts only after consent).
type terminal struct{}

func (terminal) Elicit(ctx context.Context, req acpconn.ElicitationRequest) (string, map[string]any) {
	if req.Mode == "url" {
		out, _ := urlconsent.Run(ctx, req.URL, urlconsent.RunOptions{Header: urlconsent.Header{Message: req.Message}})
		return string(out.Action), nil
	}
	out, _ := forms.Run(ctx, req.Schema, forms.Header{Message: req.Message}, forms.RunOptions{})
	return string(out.Action), out.Content
}

// RequestPermission allows reads once and nothing else (a fuller client
// would ask: req.ToolCall says what the tool call does).
func (terminal) RequestPermission(_ context.Context, req acpconn.PermissionRequest) string {
	for _, o := range req.Options {
		if req.ToolCall.Kind == "read" && o.Kind == "allow_once" {
			return o.ID
		}
	}
	return "" // cancelled
}

// A terminal client for a real agent: its forms and URL requests are
// asked on this terminal, its file reads and writes stay inside the
// current directory (Config.Dir; Config.Writes refuses or asks about
// writes), and its process group ends with Close.
func ExampleConn_Serve() {
	ctx := context.Background()
	c, err := acpconn.Start(ctx, acpconn.Config{Argv: []string{"claude-agent-acp"}})
	if err != nil {
		log.Fatal(err) // *acpconn.StartError carries the agent's last stderr lines
	}
	defer c.Close()
	go c.Serve(ctx, terminal{}) // terminal.Elicit runs forms.Run or urlconsent.Run; RequestPermission picks an option
	if _, err := c.NewSession(ctx); err != nil {
		log.Fatal(err) // acpconn.IsAuthRequired(err): sign in first (c.AuthMethods)
	}
	end, err := c.Prompt(ctx, "Ask me with a form which branch to deploy")
	fmt.Println(end.StopReason, err)
}
