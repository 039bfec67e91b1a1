package acpconn_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/question"
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

func (*unattended) Elicit(_ context.Context, q *question.Question) question.Outcome {
	if q.Kind != question.Form {
		return question.Outcome{Action: question.Cancel}
	}
	out, _ := forms.Fill(q.Schema, nil) // cancelled, with the reason, when a required field has no default
	return out
}

func (*unattended) RequestPermission(context.Context, *question.Question) question.Outcome {
	return question.Outcome{Action: question.Cancel}
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

func (terminal) Elicit(ctx context.Context, q *question.Question) question.Outcome {
	if q.Kind == question.URL {
		out, _ := urlconsent.Run(ctx, q.URL, urlconsent.RunOptions{Header: urlconsent.Header{Message: q.Message}})
		return out
	}
	out, _ := forms.Run(ctx, q.Schema, forms.Header{Message: q.Message}, forms.RunOptions{})
	return out
}

// RequestPermission allows reads once and nothing else (a fuller client
// would ask: q.Tool says what the tool call does).
func (terminal) RequestPermission(_ context.Context, q *question.Question) question.Outcome {
	for _, o := range q.Options {
		if q.Tool.Kind == "read" && o.Kind == "allow_once" {
			return question.Outcome{Action: question.Accept, Option: o.ID}
		}
	}
	return question.Outcome{Action: question.Cancel}
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
