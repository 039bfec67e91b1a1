// Command mcpfloor is the floor `elicit mcp call` is measured against: a
// bare MCP client on the same Go SDK that links no UI. It starts the
// server, calls one tool, and answers every form elicitation from an
// answers file (a JSON object of property key to value, as elicit's
// --answers): the values of the keys the form asks for, nothing checked.
// It prints the tool's text result:
//
//	mcpfloor -answers a.json -tool forms -args '{"n":1000}' -- ./mcpforms
//	accepted 1000 of 1000, 1000 as expected
//
// The exit status is 0 when the call returned a result that is not an error.
// With -list it only lists the tools, one a line (name, a tab, the title),
// as `elicit mcp tools` does: the floor of start-up ("ready": connected,
// tools listed).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("mcpfloor", flag.ContinueOnError)
	answersPath := fs.String("answers", "", "answers `FILE`: a JSON object of property key to value")
	tool := fs.String("tool", "forms", "the tool to call")
	rawArgs := fs.String("args", "{}", "the tool's arguments, a JSON object")
	memprofile := fs.String("memprofile", "", "write an allocations profile to `FILE` at the end (exact with GODEBUG=memprofilerate=1)")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to `FILE`")
	list := fs.Bool("list", false, "list the tools and exit, calling none")
	protocol := fs.String("protocol", "2025-11-25", "the MCP protocol `VERSION` to ask for (bench/mcpforms asks its forms inside the call, which 2026-07-28 does not allow)")
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: mcpfloor -answers FILE [-tool NAME] [-args JSON] -- SERVER [ARGS...]")
		return 2
	}
	if *cpuprofile != "" {
		if f, err := os.Create(*cpuprofile); err == nil {
			_ = pprof.StartCPUProfile(f)
			defer func() { pprof.StopCPUProfile(); f.Close() }()
		}
	}
	answers := map[string]any{}
	if *answersPath != "" {
		b, err := os.ReadFile(*answersPath)
		if err == nil {
			err = json.Unmarshal(b, &answers)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "mcpfloor:", err)
			return 2
		}
	}
	var callArgs map[string]any
	if err := json.Unmarshal([]byte(*rawArgs), &callArgs); err != nil {
		fmt.Fprintln(os.Stderr, "mcpfloor: -args:", err)
		return 2
	}
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpfloor", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: pick(req.Params.RequestedSchema, answers)}, nil
		},
	})
	argv := fs.Args()
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(argv[0], argv[1:]...)},
		&mcp.ClientSessionOptions{ProtocolVersion: *protocol})
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpfloor:", err)
		return 1
	}
	defer session.Close()
	if *list {
		return listTools(ctx, session)
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: *tool, Arguments: callArgs})
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpfloor:", err)
		return 1
	}
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			fmt.Println(t.Text)
		}
	}
	if *memprofile != "" {
		if f, err := os.Create(*memprofile); err == nil {
			runtime.GC()
			_ = pprof.Lookup("allocs").WriteTo(f, 0)
			f.Close()
		}
	}
	if res.IsError {
		return 1
	}
	return 0
}

// pick returns the answers for the properties the schema names.
func pick(schema any, answers map[string]any) map[string]any {
	out := map[string]any{}
	s, _ := schema.(map[string]any)
	props, _ := s["properties"].(map[string]any)
	for key := range props {
		if v, ok := answers[key]; ok {
			out[key] = v
		}
	}
	return out
}

// listTools prints every tool the server lists, name and title.
func listTools(ctx context.Context, session *mcp.ClientSession) int {
	for t, err := range session.Tools(ctx, nil) {
		if err != nil {
			fmt.Fprintln(os.Stderr, "mcpfloor:", err)
			return 1
		}
		fmt.Printf("%s\t%s\n", t.Name, t.Title)
	}
	return 0
}
