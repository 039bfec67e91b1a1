package uitest

import (
	"net/http/httptest"
	"os"
	"testing"

	"github.com/elicit-dev/elicit/internal/acpserve"
)

// ServeScript serves the named script as a remote agent on loopback (ACP's
// WebSocket and Streamable HTTP transport, internal/acpserve), one agent
// process per connection; it returns the server (Drop drops every
// connection, as a network would) and the agent's URL.
func ServeScript(t *testing.T, name string) (*acpserve.Server, string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s := &acpserve.Server{NewAgent: func() (acpserve.Agent, error) {
		return acpserve.Command([]string{self, "-test.run=^$"}, append(os.Environ(), "ELICIT_UI_TEST_AGENT=script:"+name))
	}}
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		s.Drop()
		ts.Close()
	})
	return s, ts.URL + "/acp"
}
