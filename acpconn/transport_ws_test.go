package acpconn

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// A WebSocket text frame over the message limit is reported as too long,
// and the connection is closed with 1009 (message too big); the rest of
// the frame is never read as frame headers (issue 34, item 13: the reader
// went on and ended with "connection lost: rsv bits").
func TestRemoteFrameOverLimit(t *testing.T) {
	closed := make(chan websocket.StatusCode, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		ws.SetReadLimit(-1)
		ctx := context.Background()
		if _, _, err := ws.Read(ctx); err != nil { // initialize
			closed <- -1
			return
		}
		go func() {
			_, _, err := ws.Read(ctx) // the client's close
			closed <- websocket.CloseStatus(err)
		}()
		// A message whose body is 'a', a byte with two of the rsv bits set.
		_ = ws.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","method":"x","params":"`+strings.Repeat("a", MaxLineBytes+1<<20)+`"}`))
	}))
	defer srv.Close()
	trace := &testkit.Buffer{}
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	_, err := Start(ctx, Config{Dir: t.TempDir(), Log: trace, Remote: &Remote{URL: "ws" + strings.TrimPrefix(srv.URL, "http"), Transport: TransportWS}})
	if err == nil || !strings.Contains(err.Error(), "over 10 MiB") {
		t.Errorf("err %v, want the message limit", err)
	}
	if code := <-closed; code != websocket.StatusMessageTooBig {
		t.Errorf("the server saw close status %d, want %d (message too big)", code, websocket.StatusMessageTooBig)
	}
	if strings.Contains(trace.String(), "rsv") {
		t.Errorf("the rest of the frame was read as frames:\n%s", trace.String())
	}
}
