package uitest

import (
	"bytes"
	"net/http/httptest"
	"os"
	"sync"
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

// Buffer is an output a front end writes from one goroutine while the
// test reads it from another.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is what was written so far.
func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
