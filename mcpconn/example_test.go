package mcpconn_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/mcpconn"
	"github.com/elicit-dev/elicit/question"
)

// Example connects to an MCP server over stdio, answers the form one of
// its tools asks (with forms.Fill here; forms.Run on a terminal), and
// prints the tool's result. The server is this package's test server,
// installed on PATH as my-server for the example.
func Example() {
	restore := installTestServer("my-server")
	defer restore()
	ctx := context.Background()

	c, err := mcpconn.Connect(ctx, mcpconn.Config{Argv: []string{"my-server"}})
	if err != nil {
		log.Fatal(err) // *mcpconn.StartError carries the server's last stderr lines
	}
	defer c.Close()
	go func() {
		for ev := range c.Events() {
			if a, ok := ev.(question.Asked); ok && a.Q.Kind == question.Form {
				out, _ := forms.Fill(a.Q.Schema, map[string]json.RawMessage{"zeta": []byte(`"z"`)}) // a person: forms.Run
				c.Answer(a.Q, out)
			}
		}
	}()
	res, err := c.CallTool(ctx, mcpconn.Call{Name: "mrtr-form"})
	if err != nil {
		log.Fatal(err) // c.URLRequired(err) reads a -32042 error's URLs
	}
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output: {"action":"accept","content":{"zeta":"z"}}
}

// installTestServer puts this test binary on PATH under name, as the
// test server, until restore.
func installTestServer(name string) (restore func()) {
	dir, err := os.MkdirTemp("", "mcpconn-example")
	if err != nil {
		log.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		log.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(dir, name)); err != nil {
		log.Fatal(err)
	}
	path, env := os.Getenv("PATH"), os.Getenv("MCPCONN_TEST_SERVER")
	os.Setenv("PATH", dir+string(os.PathListSeparator)+path)
	os.Setenv("MCPCONN_TEST_SERVER", "1")
	return func() {
		os.Setenv("PATH", path)
		os.Setenv("MCPCONN_TEST_SERVER", env)
		os.RemoveAll(dir)
	}
}
