package acpconn

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/netclient"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
)

// A wrong token is a clear error after one request: no retry, and no
// fallback to the other transport.
func TestRemoteWrongToken(t *testing.T) {
	for _, tr := range transports[:2] {
		t.Run(tr.name, func(t *testing.T) {
			s, url := serveRemote(t, "demo")
			s.Token = "right-token"
			trace := &testkit.Buffer{}
			ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
			defer cancel()
			_, err := Start(ctx, Config{Dir: t.TempDir(), Log: trace, Remote: &Remote{URL: url, Transport: tr.force, Token: "wrong-token-value"}})
			if !IsAuthError(err) || !strings.Contains(err.Error(), "HTTP 401") {
				t.Fatalf("err %v, want a refusal of the credentials", err)
			}
			if n := s.Count("UPGRADE") + s.Count("POST") + s.Count("GET"); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
			if strings.Contains(err.Error(), "wrong-token-value") || strings.Contains(trace.String(), "wrong-token-value") {
				t.Error("the token shows in the error or the trace")
			}
		})
	}
}

// The right token gets through, and shows nowhere in the trace.
func TestRemoteTokenNotTraced(t *testing.T) {
	s, url := serveRemote(t, "demo")
	s.Token = "sekrit-token-123"
	trace := &testkit.Buffer{}
	c := startRemoteConn(t, Remote{URL: url, Token: "sekrit-token-123"}, Config{Log: trace})
	c.StartPrompt("hello")
	for done := false; !done; {
		switch ev := next(t, c).(type) {
		case question.Asked:
			c.Answer(ev.Q, pick(ev.Q.Options[0].ID))
		case TurnEnded:
			done = true
		}
	}
	c.Close()
	if strings.Contains(trace.String(), "sekrit-token-123") {
		t.Error("the token is in the trace")
	}
	if !strings.Contains(trace.String(), "over WebSocket") {
		t.Error("the trace does not say which transport is in use")
	}
}

// A redirect is not followed over either transport: the error names where
// it pointed, and the token never reaches the other place (another port).
func TestRemoteFollowsNoRedirect(t *testing.T) {
	for _, tr := range transports[:2] {
		t.Run(tr.name, func(t *testing.T) {
			r := testkit.NewRedirect(t, "/acp")
			ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
			defer cancel()
			_, err := Start(ctx, Config{Dir: t.TempDir(), Remote: &Remote{URL: r.URL + "/acp", Transport: tr.force, Token: "tok-123"}})
			if err == nil || !strings.Contains(err.Error(), "redirects (HTTP 307) to "+r.Target+"; elicit follows no redirect") {
				t.Errorf("err %v", err)
			}
			if n, _ := r.Reached(); n != 0 {
				t.Error("the redirect was followed")
			}
		})
	}
}

func TestCheckURL(t *testing.T) {
	for _, tc := range []struct {
		url   string
		allow bool
		bad   string
	}{
		{"https://agent.example/acp", false, ""},
		{"wss://agent.example/acp", false, ""},
		{"http://127.0.0.1:8080/acp", false, ""},
		{"ws://[::1]:8080/acp", false, ""},
		{"http://localhost:8080/acp", false, ""},
		{"http://agent.invalid/acp", false, "loopback"},
		{"ws://10.0.0.1/acp", false, "loopback"},
		{"http://agent.invalid/acp", true, ""},
		{"https://user:pw@agent.example/acp", false, "credentials"},
		{"ftp://agent.example/acp", false, "scheme"},
		{"https:///acp", false, "no host"},
	} {
		_, err := CheckURL(tc.url, tc.allow)
		switch {
		case tc.bad == "" && err != nil:
			t.Errorf("%s: %v", tc.url, err)
		case tc.bad != "" && (err == nil || !strings.Contains(err.Error(), tc.bad)):
			t.Errorf("%s: err %v, want %q", tc.url, err, tc.bad)
		}
		if err != nil && strings.Contains(err.Error(), "pw@") {
			t.Errorf("%s: the password shows in %v", tc.url, err)
		}
	}
}

// Plain http to a host that is not loopback is refused before anything is
// sent; the name is checked, and so is the address it resolves to.
func TestPlaintextOffLoopbackRefused(t *testing.T) {
	_, err := Start(context.Background(), Config{Dir: t.TempDir(), Remote: &Remote{URL: "http://agent.invalid/acp"}})
	if !errors.Is(err, ErrPlaintext) {
		t.Fatalf("err %v", err)
	}
	if err := netclient.LoopbackOnly("tcp", "192.0.2.7:80", nil); !errors.Is(err, ErrPlaintext) {
		t.Errorf("dial check: %v", err)
	}
	if err := netclient.LoopbackOnly("tcp", "127.0.0.1:80", nil); err != nil {
		t.Errorf("dial check on loopback: %v", err)
	}
}
