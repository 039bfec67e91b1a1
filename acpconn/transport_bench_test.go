package acpconn

import (
	"context"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/elicit-dev/elicit/internal/acpserve"
	"github.com/elicit-dev/elicit/internal/testkit"
)

// BenchmarkTurn times one prompt turn of the demo agent streaming 2,000
// chunks ("flood 2000"), over stdio and over each remote transport on
// loopback (the in-process server of the RFD, the agent on its pipes).
// The goal: a remote turn within 1.2x of the same turn on stdio.
func BenchmarkTurn(b *testing.B) {
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), "ACPCONN_TEST_AGENT=demo")
	s := &acpserve.Server{NewAgent: func() (acpserve.Agent, error) {
		return acpserve.Command([]string{self, "-test.run=^$"}, env)
	}}
	ts := httptest.NewServer(s)
	defer ts.Close()
	defer s.Drop()
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"stdio", Config{Argv: []string{self, "-test.run=^$"}, Env: env}},
		{"websocket", Config{Remote: &Remote{URL: ts.URL + "/acp", Transport: TransportWS}}},
		{"http-sse", Config{Remote: &Remote{URL: ts.URL + "/acp", Transport: TransportHTTP}}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			tc.cfg.Dir = b.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
			defer cancel()
			c, err := Start(ctx, tc.cfg)
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			if _, err := c.NewSession(ctx); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				c.StartPrompt("flood 2000")
				for {
					ev := <-c.Events()
					if te, ok := ev.(TurnEnded); ok {
						if te.Err != nil {
							b.Fatal(te.Err)
						}
						break
					}
				}
			}
		})
	}
}
