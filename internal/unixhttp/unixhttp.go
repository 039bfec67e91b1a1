// Package unixhttp makes one HTTP request to a server listening on a Unix
// socket (a session's inbox socket, the web inbox's control socket) and
// reads its JSON reply, bounded. The standard library does it all but the
// dialing; this is that glue, in one place.
package unixhttp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
)

// StatusError is a reply whose status is not 2xx.
type StatusError struct{ Status string }

func (e *StatusError) Error() string { return "answered " + e.Status }

// Call sends method path (no body) to the server on socket, on a
// connection of its own, and decodes the JSON reply, at most limit bytes,
// into v (nil: the reply is not read).
func Call(ctx context.Context, socket, method, path string, limit int64, v any) error {
	tr := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", socket)
	}, DisableKeepAlives: true}
	defer tr.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, method, "http://localhost"+path, nil)
	if err != nil {
		return err
	}
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return &StatusError{resp.Status}
	}
	if v == nil {
		return nil
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, limit)).Decode(v); err != nil {
		return fmt.Errorf("the reply: %w", err)
	}
	return nil
}
