// Command elicit is a terminal client for agents' questions: it runs an
// Agent Client Protocol agent (or, with no agent named, its own demo agent)
// and turns every elicitation into a keyboard-only form or a URL consent
// screen. See the README, or run elicit --help.
package main

import (
	"os"

	"github.com/elicit-dev/elicit/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:])) }
