package web

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

// Every response carries the page's security headers; the API is never
// cached; a Host that is not this page's is refused (DNS rebinding), and
// so is a request from another origin, even with the cookie.
func TestHostOriginAndHeaders(t *testing.T) {
	runtimeDir(t)
	s := start(t, Options{AllowHosts: []string{"box.tailnet.ts.net"}})
	b := newBrowser(t, s)
	link, _ := s.PairURL()
	if code, _ := b.pair(link); code != http.StatusOK {
		t.Fatal("pairing failed")
	}
	get := func(path string, header map[string]string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, s.URL()+strings.TrimPrefix(path, "/"), nil)
		for k, v := range header {
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		resp, err := b.c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	page := get("/", nil)
	if page.StatusCode != http.StatusOK || !strings.HasPrefix(page.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("the page: %v", page.Status)
	}
	for _, path := range []string{"/", "/app.js", "/api/me"} {
		h := get(path, nil).Header
		csp := h.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "require-trusted-types-for 'script'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: the CSP %q lacks %q", path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
			t.Errorf("%s: the CSP allows inline code: %q", path, csp)
		}
		if h.Get("X-Frame-Options") != "DENY" || h.Get("Referrer-Policy") != "no-referrer" || h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: headers %v", path, h)
		}
	}
	if cc := get("/api/me", nil).Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("the API's Cache-Control: %q", cc)
	}
	for name, tc := range map[string]struct {
		path   string
		header map[string]string
		want   int
	}{
		"a name DNS points here":         {"/", map[string]string{"Host": "evil.example:80"}, http.StatusForbidden},
		"the API by that name":           {"/api/me", map[string]string{"Host": "evil.example"}, http.StatusForbidden},
		"an allowed name":                {"/api/me", map[string]string{"Host": "box.tailnet.ts.net"}, http.StatusUnauthorized}, // no cookie for that name
		"localhost":                      {"/", map[string]string{"Host": "localhost"}, http.StatusOK},
		"a foreign Origin":               {"/api/me", map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden},
		"an Origin of another port":      {"/api/me", map[string]string{"Origin": "http://127.0.0.1:1"}, http.StatusForbidden},
		"Origin null":                    {"/api/me", map[string]string{"Origin": "null"}, http.StatusForbidden},
		"a cross-site fetch":             {"/api/me", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		"a same-site fetch of a sibling": {"/api/me", map[string]string{"Sec-Fetch-Site": "same-site"}, http.StatusForbidden},
		"the live channel, no Origin":    {"/api/live", map[string]string{"Upgrade": "websocket", "Connection": "Upgrade"}, http.StatusForbidden},
		"the page's own GET":             {"/api/me", map[string]string{"Sec-Fetch-Site": "same-origin"}, http.StatusOK},
	} {
		if got := get(tc.path, tc.header).StatusCode; got != tc.want {
			t.Errorf("%s: %d, want %d", name, got, tc.want)
		}
	}
	// A POST with the cookie but no Origin, or another's, answers nothing.
	for _, origin := range []string{"", "http://evil.example"} {
		b.origin = origin
		if code, _ := b.post("/api/answer", map[string]string{"id": "x", "action": "decline"}); code != http.StatusForbidden {
			t.Errorf("a POST with Origin %q: %d", origin, code)
		}
	}
}

// Another address than loopback needs TLS; the error says so and is an
// option error (exit 2).
func TestNonLoopbackNeedsTLS(t *testing.T) {
	runtimeDir(t)
	_, err := Start(Options{Listen: "0.0.0.0:0", StateDir: t.TempDir()})
	var oe *OptionError
	if !errors.As(err, &oe) || !errors.Is(err, ErrNeedsTLS) || !strings.Contains(err.Error(), "--tls-cert") {
		t.Fatalf("0.0.0.0 without TLS: %v", err)
	}
	if _, err := Start(Options{Listen: "127.0.0.1:0", TLSCert: "c.pem", StateDir: t.TempDir()}); !errors.As(err, &oe) {
		t.Fatalf("a certificate without its key: %v", err)
	}
}
