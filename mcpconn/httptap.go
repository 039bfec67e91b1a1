package mcpconn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/elicit-dev/elicit/internal/netclient"
)

// tapTransport is the HTTP round tripper of a streamable HTTP connection,
// above netclient's (which sends the --header headers to the endpoint's
// origin only, follows no redirect and caps every message): it shows
// every JSON-RPC message both ways to the observer (request bodies whole;
// response bodies as JSON or as the data of server-sent events) before
// the SDK reads them, and ends the connection (broke) when netclient
// refuses a redirect or a message over the limit: the SDK would drop a
// broken stream quietly, and a call waiting on it would wait forever.
type tapTransport struct {
	next  http.RoundTripper
	obs   *observer
	broke func(error)
}

func (t *tapTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil && req.Body != http.NoBody {
		body, err := io.ReadAll(io.LimitReader(req.Body, maxObserved+1))
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		if len(body) <= maxObserved {
			t.obs.out(body)
		}
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	resp, err := t.next.RoundTrip(req)
	var re *netclient.RedirectError
	if errors.As(err, &re) {
		t.broke(re)
	}
	if err != nil || resp.Body == nil {
		return resp, err
	}
	switch {
	case netclient.IsEventStream(resp):
		st := &sseTap{r: resp.Body, broke: t.broke}
		st.p.Emit = func(data []byte) error {
			if len(data) <= maxObserved {
				t.obs.in(data)
			}
			return nil
		}
		resp.Body = st
	case strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json"):
		resp.Body = &jsonTap{r: resp.Body, obs: t.obs, broke: t.broke}
	default:
		resp.Body = &jsonTap{r: resp.Body, broke: t.broke} // not observed, but capped all the same
	}
	return resp, nil
}

// tooLarge is how a message over the limit ends the connection.
func tooLarge() error {
	return fmt.Errorf("the server sent a message over %d MiB; the connection was closed", netclient.MaxMessageBytes>>20)
}

// jsonTap observes a whole JSON response body once it has been read (obs
// nil: only watches for a body over the limit).
type jsonTap struct {
	r     io.ReadCloser
	obs   *observer
	broke func(error)
	buf   []byte
	over  bool
}

func (j *jsonTap) Read(p []byte) (int, error) {
	n, err := j.r.Read(p)
	if errors.Is(err, netclient.ErrTooLarge) {
		err = tooLarge()
		j.broke(err)
		return n, err
	}
	if j.obs == nil {
		return n, err
	}
	if !j.over {
		if len(j.buf)+n > maxObserved {
			j.over, j.buf = true, nil
		} else {
			j.buf = append(j.buf, p[:n]...)
		}
	}
	if err == io.EOF && !j.over && len(j.buf) > 0 {
		j.obs.in(j.buf)
		j.buf, j.over = nil, true
	}
	return n, err
}

func (j *jsonTap) Close() error { return j.r.Close() }

// sseTap observes the data of each server-sent event as it completes,
// before the SDK reads the blank line that ends it.
type sseTap struct {
	r     io.ReadCloser
	p     netclient.EventParser
	broke func(error)
	err   error
}

func (s *sseTap) Read(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.r.Read(p)
	if perr := s.p.Feed(p[:n]); perr != nil && err == nil {
		err = perr
	}
	if errors.Is(err, netclient.ErrTooLarge) {
		s.err = tooLarge()
		s.broke(s.err)
		return 0, s.err
	}
	return n, err
}

func (s *sseTap) Close() error { return s.r.Close() }
