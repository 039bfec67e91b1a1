package uitest

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// ApproveFlow presses the demo agent's Approve button for the pending
// URL flow whose page is page (the URL the opener was given), as a
// browser would.
func ApproveFlow(t testing.TB, page string) {
	t.Helper()
	u, err := url.Parse(page)
	if err != nil {
		t.Fatal(err)
	}
	id := u.Path[strings.LastIndex(u.Path, "/")+1:]
	resp, err := http.PostForm(u.Scheme+"://"+u.Host+"/approve", url.Values{"id": {id}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("approve: %s", resp.Status)
	}
}
