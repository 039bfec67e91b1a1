package ahp

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// Issue 34, items 1 and 2: what a client may call itself. Every
// connection is admitted in one place (Host.admit), over real sockets
// here, by a hostile client that writes its own JSON-RPC.

func refusedWith(t *testing.T, m testkit.Reply, want string) {
	t.Helper()
	if m.Error == nil {
		t.Fatalf("taken (%s), want a refusal saying %q", m.Result, want)
	}
	if !strings.Contains(m.Error.Message, want) {
		t.Fatalf("refused with %q, want it to say %q", m.Error.Message, want)
	}
}

// A client id is echoed in every action the client dispatches and kept
// for replay: one of 512 KiB took the host
// to gigabytes. The host takes at most MaxClientID printable bytes.
func TestClientIDIsCapped(t *testing.T) {
	_, url := startHost(t, HostOptions{})
	for _, id := range []string{strings.Repeat("a", 512<<10), strings.Repeat("a", MaxClientID+1), "evil\x1b]0;title\x07", "a\u202eb", ""} {
		c := testkit.MustDialAHP(t, url, testToken)
		refusedWith(t, c.Initialize(id), "clientId")
		refusedWith(t, c.Call("reconnect", map[string]any{"channel": RootChannel, "clientId": id, "lastSeenServerSeq": 0}), "clientId")
	}
	c := testkit.MustDialAHP(t, url, testToken)
	if m := c.Initialize(strings.Repeat("é", MaxClientID/2)); m.Error != nil {
		t.Fatalf("a client id of %d bytes was refused: %+v", MaxClientID, m.Error)
	}
}

// Two connections never share an id: the second initialize is refused,
// and no connection may take an id of the host's own clients (the
// serving terminal's), even by reconnect.
func TestClientIDIsUniqueAndNeverTheHosts(t *testing.T) {
	h, url := startHost(t, HostOptions{})
	desk, err := h.Join("serve:ada@desk")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Join("serve:ada@desk"); err == nil {
		t.Fatal("the host's own id was given twice")
	}
	a := testkit.MustDialAHP(t, url, testToken)
	if m := a.Initialize("alice"); m.Error != nil {
		t.Fatal(m.Error)
	}
	b := testkit.MustDialAHP(t, url, testToken)
	refusedWith(t, b.Initialize("alice"), "in use")
	refusedWith(t, b.Initialize("serve:ada@desk"), "the host's own")
	refusedWith(t, b.Call("reconnect", map[string]any{"channel": RootChannel, "clientId": "serve:ada@desk", "lastSeenServerSeq": 0}), "the host's own")
	if _, err := h.Join("alice"); err == nil {
		t.Fatal("the host took a connected client's id for its own")
	}
	if desk.ID() != "serve:ada@desk" {
		t.Fatalf("joined as %q", desk.ID())
	}
}

// A client that comes back on a new connection (its old one not yet seen
// to drop) reconnects under its id; the old connection ends, so the id is
// still one connection's.
func TestReconnectTakesTheIDOver(t *testing.T) {
	h, url := startHost(t, HostOptions{})
	old := dial(t, url, ClientOptions{ClientID: "laptop"})
	ask(t, h, Request{ID: "r", Questions: []Question{textQ("name", false)}}, old)
	c := testkit.MustDialAHP(t, url, testToken)
	if m := c.Call("reconnect", map[string]any{"channel": RootChannel, "clientId": "laptop", "lastSeenServerSeq": 0}); m.Error != nil {
		t.Fatal(m.Error)
	}
	waitFor(t, old, "the old connection's end", func(ev Event) bool { e, ok := ev.(Connection); return ok && !e.Up })
	h.mu.Lock()
	n := 0
	for conn := range h.conns {
		if conn.clientID == "laptop" {
			n++
		}
	}
	h.mu.Unlock()
	if n > 1 {
		t.Fatalf("%d connections are called laptop", n)
	}
}

// Issue 34, item 8: a client's drafts are rate-limited (a burst of
// DraftBurst, then DraftRate a second): the rest are refused with the
// reason, and the host applies none of them.
func TestDraftsAreRateLimited(t *testing.T) {
	now := time.Unix(1e9, 0)
	h, url := startHost(t, HostOptions{Now: func() time.Time { return now }, DraftRate: 1, DraftBurst: 5})
	if err := h.Request(Request{ID: "r", Questions: []Question{textQ("name", false)}}); err != nil {
		t.Fatal(err)
	}
	c := testkit.MustDialAHP(t, url, testToken)
	if m := c.Initialize("flood"); m.Error != nil {
		t.Fatal(m.Error)
	}
	c.Open("r")
	for i := range 8 {
		if err := c.Dispatch(i+1, testkit.TextDraft("r", "name", fmt.Sprint("draft ", i))); err != nil {
			t.Fatal(err)
		}
	}
	var applied, refused int
	for applied+refused < 8 {
		m := c.Read()
		switch {
		case m.Method != "action" || !strings.Contains(string(m.Params), "inputAnswerChanged"):
		case strings.Contains(string(m.Params), "too many drafts"):
			refused++
		default:
			applied++
		}
	}
	if applied != 5 || refused != 3 {
		t.Fatalf("%d drafts applied and %d refused, want 5 and 3", applied, refused)
	}
	if got := answerText(h.Inputs(), "r", "name"); got != "draft 4" {
		t.Fatalf("the host has %q", got)
	}
}

// Issue 34, item 10: with --insecure-no-token, a page on a name that
// rebinds to 127.0.0.1 sends its own name in Host (and Origin, which then
// matches it): refused. Loopback addresses, localhost and a configured
// name are taken.
func TestHostHeaderIsChecked(t *testing.T) {
	h := NewHost(HostOptions{})
	s, err := Listen(ServerOptions{Addr: "127.0.0.1:0", Insecure: true, AllowHosts: []string{"desk.example"}}, h)
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve()
	t.Cleanup(func() { s.Close(); h.Close() })
	port := s.URL()[strings.LastIndexByte(s.URL()[:len(s.URL())-1], ':')+1 : len(s.URL())-1]
	for _, host := range []string{"rebind.example", "127.0.0.1.nip.io", "localhost.rebind.example"} {
		hdr := http.Header{"Host": {host + ":" + port}, "Origin": {"http://" + host + ":" + port}}
		if _, err := testkit.DialAHP(t, s.URL(), "", hdr); err == nil || !strings.Contains(err.Error(), "403") {
			t.Errorf("Host %s: %v, want 403", host, err)
		}
	}
	for _, host := range []string{"127.0.0.1", "localhost", "[::1]", "desk.example"} {
		hdr := http.Header{"Host": {host + ":" + port}}
		c, err := testkit.DialAHP(t, s.URL(), "", hdr)
		if err != nil {
			t.Errorf("Host %s: %v", host, err)
			continue
		}
		if m := c.Initialize("c-" + host); m.Error != nil {
			t.Errorf("Host %s: %+v", host, m.Error)
		}
	}
}

// A client that sends large refused actions and never reads makes the
// host queue their echoes: past MaxQueueBytes it is dropped, instead of
// the host holding a gigabyte for it.
func TestSlowReaderQueueIsBoundedInBytes(t *testing.T) {
	h := NewHost(HostOptions{})
	s, err := Listen(ServerOptions{Addr: "127.0.0.1:0", Token: testToken, MaxQueueBytes: 1 << 20}, h)
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve()
	t.Cleanup(func() { s.Close(); h.Close() })
	c := testkit.MustDialAHP(t, s.URL(), testToken)
	if m := c.Initialize("slow"); m.Error != nil {
		t.Fatal(m.Error)
	}
	big := strings.Repeat("x", 256<<10)
	const n = 200 // 50 MiB of echoes, more than any socket buffer holds
	sent := 0
	for ; sent < n; sent++ {
		if err := c.Dispatch(sent+1, map[string]any{"type": "chat/inputAnswerChanged", "requestId": "none", "questionId": big}); err != nil {
			break // dropped already
		}
	}
	got := 0
	for ; got < sent; got++ {
		if _, err := c.TryRead(); err != nil {
			break
		}
	}
	if got == n {
		t.Fatalf("all %d echoes were queued for a client that did not read", n)
	}
}
