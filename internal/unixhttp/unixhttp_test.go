package unixhttp

import (
	"context"
	"errors"
	"net"
	"net/http"
	"path/filepath"
	"testing"
)

// A real server on a real Unix socket: the reply is decoded, a status
// that is not 2xx is a StatusError naming it, and a reply over the limit
// is an error, not a partial value.
func TestCall(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ok", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"open":3}`)) })
	mux.HandleFunc("POST /big", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"open":"` + string(make([]byte, 100)) + `"}`))
	})
	srv := &http.Server{Handler: mux}
	go srv.Serve(l)
	defer srv.Close()
	ctx := context.Background()

	var v struct{ Open int }
	if err := Call(ctx, sock, http.MethodGet, "/ok", 1024, &v); err != nil || v.Open != 3 {
		t.Fatalf("GET /ok: %v, %+v", err, v)
	}
	var se *StatusError
	if err := Call(ctx, sock, http.MethodGet, "/missing", 1024, &v); !errors.As(err, &se) || se.Status != "404 Not Found" {
		t.Fatalf("GET /missing: %v, want a StatusError naming 404", err)
	}
	var big struct{ Open string }
	if err := Call(ctx, sock, http.MethodPost, "/big", 20, &big); err == nil {
		t.Fatalf("a reply over the limit decoded: %+v", big)
	}
	if err := Call(ctx, sock, http.MethodPost, "/big", 1024, nil); err != nil {
		t.Fatalf("POST with no reply wanted: %v", err)
	}
}
