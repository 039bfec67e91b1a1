package web

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/inbox"
	"github.com/elicit-dev/elicit/internal/testkit"
)

// The tests run the web inbox against real sessions' hosts, published on
// real Unix sockets in a private inbox directory, and talk to it over
// real TCP as a browser does (cookies, Origin).

// runtimeDir points XDG_RUNTIME_DIR at a new private directory.
func runtimeDir(t *testing.T) {
	t.Helper()
	base, err := os.MkdirTemp("", "web-") // short: socket paths are at most ~100 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_RUNTIME_DIR", base)
}

// session publishes a host as a session of agent in dir.
func session(t *testing.T, agent, dir string) *ahp.Host {
	t.Helper()
	h := ahp.NewHost(ahp.HostOptions{Title: agent, Meta: &ahp.SessionMeta{Agent: agent, Cwd: dir, PID: os.Getpid(), Front: "session"}})
	p, err := inbox.Publish(h, ahp.HandlerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(); h.Close() })
	return h
}

// clock is a test's clock, moved by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// start runs the web inbox for the test.
func start(t *testing.T, o Options) *Server {
	t.Helper()
	if o.StateDir == "" {
		o.StateDir = t.TempDir()
	}
	s, err := Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// browser is an HTTP client that keeps cookies and sends the page's
// Origin, as the page's own requests do.
type browser struct {
	t      *testing.T
	c      *http.Client
	base   string
	origin string
	set    []*http.Cookie // the cookies the last response set
}

func newBrowser(t *testing.T, s *Server) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, c: &http.Client{Jar: jar}, base: s.URL(), origin: strings.TrimSuffix(s.URL(), "/")}
}

// pair trades the token of link for this browser's cookie.
func (b *browser) pair(link string) (int, map[string]any) {
	_, tok, _ := strings.Cut(link, "#pair=")
	return b.post("/api/pair", map[string]string{"token": tok})
}

func (b *browser) post(path string, body any) (int, map[string]any) {
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, b.base+strings.TrimPrefix(path, "/"), bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	if b.origin != "" {
		req.Header.Set("Origin", b.origin)
	}
	return b.do(req)
}

func (b *browser) get(path string) (int, map[string]any) {
	req, _ := http.NewRequest(http.MethodGet, b.base+strings.TrimPrefix(path, "/"), nil)
	return b.do(req)
}

func (b *browser) do(req *http.Request) (int, map[string]any) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	resp, err := b.c.Do(req.WithContext(ctx))
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	b.set = resp.Cookies()
	raw, _ := io.ReadAll(resp.Body)
	var v map[string]any
	_ = json.Unmarshal(raw, &v)
	if v == nil {
		v = map[string]any{"body": string(raw)}
	}
	return resp.StatusCode, v
}

// waitItems waits until the page's list holds n questions, and returns
// their ids.
func waitItems(t *testing.T, s *Server, n int) []string {
	t.Helper()
	var ids []string
	testkit.Until(t, "the inbox's questions", func() bool {
		ids = ids[:0]
		for _, it := range s.watch.Items() {
			ids = append(ids, it.ID)
		}
		return len(ids) == n
	}, nil, func() string { return strings.Join(ids, " ") })
	return ids
}

// textForm is a form of one required text field "name".
func textForm(id string) ahp.Request {
	return ahp.Request{ID: id, Message: "Who are you?", Questions: []ahp.Question{{ID: "name", Kind: ahp.KindText, Title: "Name", Message: "Your name", Required: true}},
		Meta: ahp.RequestMeta{Kind: ahp.MetaForm, AskedAt: time.Now().UTC().Format(time.RFC3339Nano)}.Raw()}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	t.Cleanup(cancel)
	return ctx
}

func stateFile(s *Server) string { return filepath.Join(s.o.StateDir, DevicesFile) }

// liveConn is the page's live channel, as the test reads it.
type liveConn struct {
	c    *websocket.Conn
	last snapshot
}

// live opens the live channel with this browser's cookie and Origin.
func (b *browser) live(t *testing.T) *liveConn {
	t.Helper()
	u, _ := url.Parse(b.base)
	hdr := http.Header{"Origin": {b.origin}}
	for _, c := range b.c.Jar.Cookies(u) {
		hdr.Add("Cookie", c.Name+"="+c.Value)
	}
	c, _, err := websocket.Dial(ctxT(t), "ws://"+u.Host+"/api/live", &websocket.DialOptions{HTTPHeader: hdr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return &liveConn{c: c}
}

// next is the next list the live channel sends.
func (l *liveConn) next(t *testing.T) snapshot {
	t.Helper()
	_, b, err := l.c.Read(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	l.last = snapshot{}
	if err := json.Unmarshal(b, &l.last); err != nil {
		t.Fatal(err)
	}
	return l.last
}

// until reads lists until one satisfies cond, and returns it.
func (l *liveConn) until(t *testing.T, cond func(snapshot) bool) snapshot {
	t.Helper()
	for {
		if snap := l.next(t); cond(snap) {
			return snap
		}
	}
}
