// Command acpserve serves an agent command over ACP's Streamable HTTP and
// WebSocket transport on loopback, one agent process per connection, for
// the remote group of bench/run.sh. It prints its /acp URL on stdout and
// serves until killed.
//
//	acpserve -- lineagent
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/elicit-dev/elicit/internal/acpserve"
)

func main() {
	flag.Parse()
	argv := flag.Args()
	if len(argv) == 0 {
		fmt.Fprintln(os.Stderr, "usage: acpserve -- AGENT...")
		os.Exit(2)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	s := &acpserve.Server{NewAgent: func() (acpserve.Agent, error) { return acpserve.Command(argv, os.Environ()) }}
	fmt.Printf("http://%s/acp\n", l.Addr())
	if err := http.Serve(l, s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
