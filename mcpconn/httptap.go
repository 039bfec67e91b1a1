package mcpconn

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

// tapTransport is the HTTP round tripper of a streamable HTTP connection:
// it adds the --header headers and shows every JSON-RPC message both ways
// to the observer (request bodies whole; response bodies as JSON or as
// the data of server-sent events) before the SDK reads them.
type tapTransport struct {
	next   http.RoundTripper
	header http.Header
	obs    *observer
}

func (t *tapTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, vs := range t.header {
		req.Header.Del(k)
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if req.Body != nil && req.Body != http.NoBody {
		body, err := io.ReadAll(io.LimitReader(req.Body, maxObserved+1))
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		if len(body) <= maxObserved {
			t.obs.out(body)
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	ct := resp.Header.Get("Content-Type")
	switch {
	case strings.HasPrefix(ct, "text/event-stream"):
		resp.Body = &sseTap{r: resp.Body, obs: t.obs}
	case strings.HasPrefix(ct, "application/json"):
		resp.Body = &jsonTap{r: resp.Body, obs: t.obs}
	}
	return resp, nil
}

// jsonTap observes a whole JSON response body once it has been read.
type jsonTap struct {
	r    io.ReadCloser
	obs  *observer
	buf  []byte
	over bool
}

func (j *jsonTap) Read(p []byte) (int, error) {
	n, err := j.r.Read(p)
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

// sseTap observes the data of each server-sent event as it completes.
type sseTap struct {
	r    io.ReadCloser
	obs  *observer
	tap  lineTap
	data []byte
	init bool
}

func (s *sseTap) Read(p []byte) (int, error) {
	if !s.init {
		s.init = true
		s.tap.f = s.line
	}
	n, err := s.r.Read(p)
	s.tap.feed(bytes.ReplaceAll(p[:n], []byte("\r"), nil))
	return n, err
}

// line handles one line of the event stream; an empty line ends an event
// (lineTap hands only non-empty lines, so "data:" lines are joined as
// they come and an event is observed at its next field line or end).
func (s *sseTap) line(l []byte) {
	switch {
	case bytes.HasPrefix(l, []byte("data:")):
		d := bytes.TrimPrefix(bytes.TrimPrefix(l, []byte("data:")), []byte(" "))
		if len(s.data) > 0 {
			s.data = append(s.data, '\n')
		}
		s.data = append(s.data, d...)
		if len(s.data) > 0 && s.complete() {
			s.obs.in(s.data)
			s.data = s.data[:0]
		}
	}
}

// complete reports whether the data gathered so far is one whole JSON
// value: servers send each message as one data line, and an event is
// observed as soon as its message is whole.
func (s *sseTap) complete() bool {
	d := bytes.TrimSpace(s.data)
	return len(d) > 0 && (d[0] == '{' || d[0] == '[') && json.Valid(d)
}

func (s *sseTap) Close() error { return s.r.Close() }
