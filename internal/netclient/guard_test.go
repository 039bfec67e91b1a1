package netclient

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

func client(t *testing.T, endpoint string, h http.Header) *http.Client {
	t.Helper()
	u, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	hc, err := New(Options{Endpoint: u, Header: h})
	if err != nil {
		t.Fatal(err)
	}
	return hc
}

// The headers go to the endpoint's origin only: another port of the same
// host is another origin.
func TestHeadersBoundToTheOrigin(t *testing.T) {
	seen := func(got *atomic.Value) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got.Store(r.Header.Get("Authorization") + "|")
		}))
	}
	var atHome, elsewhere atomic.Value
	home, other := seen(&atHome), seen(&elsewhere)
	defer home.Close()
	defer other.Close()
	hc := client(t, "ws"+strings.TrimPrefix(home.URL, "http")+"/acp", http.Header{"Authorization": {"Bearer tok"}})
	for _, u := range []string{home.URL + "/other/path", other.URL + "/acp"} {
		resp, err := hc.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if atHome.Load() != "Bearer tok|" || elsewhere.Load() != "|" {
		t.Errorf("the endpoint's origin got %q, another port %q", atHome.Load(), elsewhere.Load())
	}
}

// A redirect is an error that names where it pointed; it is not followed.
func TestNoRedirect(t *testing.T) {
	var reached atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached.Add(1) }))
	defer other.Close()
	srv := httptest.NewServer(http.RedirectHandler(other.URL+"/x?token=abc", http.StatusMovedPermanently))
	defer srv.Close()
	_, err := client(t, srv.URL, nil).Get(srv.URL + "/mcp")
	var re *RedirectError
	if !errors.As(err, &re) || re.Status != 301 || re.From != srv.URL+"/mcp" || re.To != other.URL+"/x?token=%E2%80%A6" {
		t.Errorf("err %#v", err)
	}
	if reached.Load() != 0 {
		t.Error("the redirect was followed")
	}
}

// A body over MaxMessageBytes fails with ErrTooLarge; one at the limit is
// read whole. An event stream is capped event by event, not as a whole.
func TestBodiesCapped(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/over":
			io.WriteString(w, strings.Repeat("a", MaxMessageBytes+1))
		case "/at":
			io.WriteString(w, strings.Repeat("a", MaxMessageBytes))
		case "/events":
			w.Header().Set("Content-Type", "text/event-stream")
			for range 3 {
				io.WriteString(w, "data: "+strings.Repeat("a", MaxMessageBytes/2)+"\n\n")
			}
		case "/event-over":
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: "+strings.Repeat("a", MaxMessageBytes/2)+"\ndata: "+strings.Repeat("a", MaxMessageBytes/2)+"\n\n")
		}
	}))
	defer srv.Close()
	hc := client(t, srv.URL, nil)
	for path, want := range map[string]error{"/over": ErrTooLarge, "/at": nil, "/events": nil, "/event-over": ErrTooLarge} {
		resp, err := hc.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if !errors.Is(err, want) && err != want {
			t.Errorf("%s: %v, want %v", path, err, want)
		}
	}
}
