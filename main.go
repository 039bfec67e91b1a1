// Command elicit is a terminal client for agents' questions: it runs an
// Agent Client Protocol agent (or, with no agent named, its own demo agent)
// and turns every elicitation into a keyboard-only form or a URL consent
// screen. See the README, or run elicit --help.
package main

import (
	"os"

	"github.com/elicit-dev/elicit/cmd"
)

func main() { os.Exit(cmd.Main(os.Args[1:])) }
