package ahp

import (
	"context"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// Issue 34, item 11: the WebSocket upgrade follows no redirect, so the
// bearer token never goes to the place it points to (here another port of
// this machine): the error names where it pointed.
func TestDialFollowsNoRedirect(t *testing.T) {
	r := testkit.NewRedirect(t, "/")
	_, err := Dial(context.Background(), ClientOptions{URL: "ws" + strings.TrimPrefix(r.URL, "http") + "/", Token: "s3cret-token"})
	if err == nil || !strings.Contains(err.Error(), "redirects (HTTP 307) to "+r.Target) || !strings.Contains(err.Error(), "follows no redirect") {
		t.Errorf("err %v, want the redirect named and refused", err)
	}
	if err != nil && strings.Contains(err.Error(), "s3cret-token") {
		t.Errorf("the token shows in %v", err)
	}
	if n, auth := r.Reached(); n != 0 {
		t.Errorf("the redirect was followed: %d requests reached the other place, with credentials %q", n, auth)
	}
}
