package web

import (
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// A pairing link pairs one browser, once, within five minutes; the
// device's secret reaches the browser in an HttpOnly, SameSite=Strict
// cookie, and the state directory holds only its hash, in a file of mode
// 0600. Without the cookie nothing is shown.
func TestPairOnceWithinFiveMinutes(t *testing.T) {
	runtimeDir(t)
	h := session(t, "demo", "/work/a")
	if err := h.Request(textForm("q1")); err != nil {
		t.Fatal(err)
	}
	clk := &clock{now: time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)}
	s := start(t, Options{Now: clk.Now})
	waitItems(t, s, 1)

	phone := newBrowser(t, s)
	if code, body := phone.get("/api/question?id=x"); code != http.StatusUnauthorized {
		t.Fatalf("a question without the cookie: %d %v", code, body)
	}
	link, exp := s.PairURL()
	if !strings.HasPrefix(link, s.URL()+"#pair=") || !exp.Equal(clk.Now().Add(5*time.Minute)) {
		t.Fatalf("the link %s expires %v", link, exp)
	}
	if tok := link[strings.Index(link, "=")+1:]; len(tok) != 22 { // 128 bits, base64url
		t.Fatalf("the token %q is not 128 bits", tok)
	}
	code, body := phone.pair(link)
	if code != http.StatusOK || len(phone.set) != 1 {
		t.Fatalf("pairing: %d %v %v", code, body, phone.set)
	}
	c := phone.set[0]
	if code, body := phone.get("/api/me"); code != http.StatusOK || body["permissions"] != false {
		t.Fatalf("paired, /api/me: %d %v", code, body)
	}

	// The same link again, from another browser: refused, and that
	// browser sees nothing.
	other := newBrowser(t, s)
	if code, body := other.pair(link); code != http.StatusForbidden || !strings.Contains(body["message"].(string), "used already or has expired") {
		t.Fatalf("a used link: %d %v", code, body)
	}
	if code, _ := other.get("/api/me"); code != http.StatusUnauthorized {
		t.Fatalf("the refused browser is paired: %d", code)
	}
	// A link five minutes old pairs nothing; one a second younger did.
	late, _ := s.PairURL()
	clk.add(5 * time.Minute)
	if code, _ := other.pair(late); code != http.StatusForbidden {
		t.Fatalf("an expired link: %d", code)
	}
	early, _ := s.PairURL()
	clk.add(5*time.Minute - time.Second)
	if code, _ := other.pair(early); code != http.StatusOK {
		t.Fatalf("a link within its five minutes: %d", code)
	}

	// The cookie, and what is kept of it.
	if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Secure || c.Path != "/" {
		t.Fatalf("the cookie: %+v", c)
	}
	fi, err := os.Stat(stateFile(s))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the devices file: %v %v", fi, err)
	}
	kept, _ := os.ReadFile(stateFile(s))
	_, secret, _ := strings.Cut(c.Value, ".")
	if len(secret) < 40 || strings.Contains(string(kept), secret) || !strings.Contains(string(kept), hashOf(secret)) {
		t.Fatalf("the file must hold the secret's hash, never the secret:\n%s", kept)
	}
	list, err := s.devices.List()
	if err != nil || len(list) != 2 {
		t.Fatalf("two devices paired: %v %v", list, err)
	}

	// Revoked: the cookie opens nothing.
	id, _, _ := strings.Cut(c.Value, ".")
	if _, err := s.devices.Revoke(id); err != nil {
		t.Fatal(err)
	}
	if code, _ := phone.get("/api/me"); code != http.StatusUnauthorized {
		t.Fatalf("a revoked device: %d", code)
	}
	if _, err := s.devices.Revoke(id); err == nil {
		t.Fatal("revoked twice")
	}
}

// Under TLS, or behind a proxy that says the page came over HTTPS, the
// cookie is Secure.
func TestCookieSecureOverHTTPS(t *testing.T) {
	runtimeDir(t)
	s := start(t, Options{})
	b := newBrowser(t, s)
	link, _ := s.PairURL()
	_, tok, _ := strings.Cut(link, "#pair=")
	req, _ := http.NewRequest(http.MethodPost, s.URL()+"api/pair", strings.NewReader(`{"token":"`+tok+`"}`))
	req.Header.Set("Origin", b.origin)
	req.Header.Set("X-Forwarded-Proto", "https")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if c := resp.Cookies(); len(c) != 1 || !c[0].Secure {
		t.Fatalf("cookies %+v", c)
	}
}

// A devices file others could read, or that is not a regular file, is
// refused, never trusted.
func TestDevicesFileMustBePrivate(t *testing.T) {
	d := NewDevices(t.TempDir())
	if _, _, err := d.Add("Chrome on Android", time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(d.Path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := d.List(); err == nil || !strings.Contains(err.Error(), "can be read by others") {
		t.Fatalf("a file of mode 0644: %v", err)
	}
	if _, ok := d.Check("x.y"); ok {
		t.Fatal("a device checked against a file others can read")
	}
}

func TestDeviceName(t *testing.T) {
	for ua, want := range map[string]string{
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1": "Safari on iPhone",
		"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36":                       "Chrome on Android",
		"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0":                                                                  "Firefox on Linux",
		"curl/8.5.0": "A browser",
	} {
		if got := deviceName(ua); got != want {
			t.Errorf("%q: %q, want %q", ua, got, want)
		}
	}
}
