package ahp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"

	"github.com/coder/websocket"

	"github.com/elicit-dev/elicit/internal/netclient"
)

// dial opens the WebSocket through netclient's setup: no redirect is
// followed (the token would go where it points), and the token goes to
// the host's origin only.
func (c *Client) dial(ctx context.Context) (*websocket.Conn, error) {
	if c.o.Socket != "" {
		return c.dialUnix(ctx)
	}
	u, err := url.Parse(c.o.URL)
	if err != nil {
		return nil, fmt.Errorf("the host's URL: %w", err)
	}
	o := netclient.Options{Endpoint: u, HTTP1: true}
	if c.o.Token != "" {
		o.Header = http.Header{"Authorization": {"Bearer " + c.o.Token}}
	}
	if c.o.HTTPClient != nil {
		o.Base = c.o.HTTPClient.Transport
	}
	hc, err := netclient.New(o)
	if err != nil {
		return nil, err
	}
	conn, resp, err := websocket.Dial(ctx, c.o.URL, &websocket.DialOptions{HTTPClient: hc, CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		var re *netclient.RedirectError
		switch {
		case errors.As(err, &re):
			return nil, re
		case resp != nil && resp.StatusCode == http.StatusUnauthorized:
			return nil, errors.New("the host refused the token (401)")
		}
		return nil, err
	}
	conn.SetReadLimit(c.o.MaxMessage)
	return conn, nil
}

// dialUnix opens the WebSocket over the Unix socket at Options.Socket:
// HTTP/1.1 on a connection to the socket, whatever the URL's host.
func (c *Client) dialUnix(ctx context.Context) (*websocket.Conn, error) {
	path := c.o.Socket
	u := c.o.URL
	if u == "" {
		u = "ws://localhost/"
	}
	hc := &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", path)
		},
		DisableKeepAlives: true,
	}, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	conn, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: hc, CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		return nil, err
	}
	conn.SetReadLimit(c.o.MaxMessage)
	return conn, nil
}
