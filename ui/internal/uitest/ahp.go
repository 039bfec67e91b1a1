package uitest

import (
	"context"
	"testing"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/testkit"
)

// AHPHost is a real AHP host titled "demo" behind the real server on a
// loopback port, its bearer token, and its URL; the test's cleanup stops
// both.
func AHPHost(t *testing.T, token string) (*ahp.Host, string) {
	t.Helper()
	h := ahp.NewHost(ahp.HostOptions{Title: "demo"})
	s, err := ahp.Listen(ahp.ServerOptions{Token: token}, h)
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve()
	t.Cleanup(func() { s.Close(); h.Close() })
	return h, s.URL()
}

// AHPClient is the client id of the host at url, over a real socket.
func AHPClient(t *testing.T, url, token, id string) *ahp.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	c, err := ahp.Dial(ctx, ahp.ClientOptions{URL: url, Token: token, ClientID: id})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// Completion waits for the next completion h receives.
func Completion(t *testing.T, h *ahp.Host) ahp.Completion {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	c, ok := h.NextCompletion(ctx)
	if !ok {
		t.Fatal("no completion (the host closed, or it hangs)")
	}
	return c
}
