// Command hostile-agent is the hostile ACP agent the black-box tests and
// scripts/e2e-approval.sh attack elicit with (package hostile; the
// environment variable ELICIT_HOSTILE_SCENARIO picks what it does). It is
// test furniture: built by the tests, never linked into elicit.
package main

import (
	"context"
	"os"

	"github.com/elicit-dev/elicit/internal/hostile"
)

func main() {
	if hostile.Run(context.Background(), os.Stdin, os.Stdout) != nil {
		os.Exit(1)
	}
}
