package modelmock

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// sseEvent is one parsed server-sent event.
type sseEvent struct {
	name string
	data string
}

// decode unmarshals the event's data.
func (e sseEvent) decode(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(e.data), &m); err != nil {
		t.Fatalf("event %q: data is not JSON: %v: %s", e.name, err, e.data)
	}
	return m
}

// parseSSE reads a whole event stream, checking its framing: every event
// is "event:" (optional) and "data:" lines ended by a blank line.
func parseSSE(t *testing.T, r io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	var cur sseEvent
	open := false
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if !open {
				t.Fatalf("blank line without an event")
			}
			out = append(out, cur)
			cur, open = sseEvent{}, false
		case strings.HasPrefix(line, "event: "):
			if open {
				t.Fatalf("event line inside an event: %q", line)
			}
			cur.name, open = strings.TrimPrefix(line, "event: "), true
		case strings.HasPrefix(line, "data: "):
			if cur.data != "" {
				t.Fatalf("two data lines in one event: %q", line)
			}
			cur.data, open = strings.TrimPrefix(line, "data: "), true
		default:
			t.Fatalf("unexpected line %q", line)
		}
	}
	if open {
		t.Fatalf("stream ended inside an event")
	}
	return out
}

// startServer starts a mock on a loopback port for the test.
func startServer(t *testing.T) *Server {
	t.Helper()
	s, err := Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// post sends a JSON body and returns the response, checking the status.
func post(t *testing.T, s *Server, path, body string, wantStatus int) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.URL()+path, bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-api-key", "anything")
	req.Header.Set("Authorization", "Bearer anything")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != wantStatus {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("POST %s: status %d, want %d: %s", path, resp.StatusCode, wantStatus, b)
	}
	return resp
}

// decodeBody unmarshals a JSON response body.
func decodeBody(t *testing.T, resp *http.Response) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// jsonEqual reports whether two JSON texts encode the same value.
func jsonEqual(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal([]byte(a), &x); err != nil {
		t.Fatalf("not JSON: %v: %s", err, a)
	}
	if err := json.Unmarshal([]byte(b), &y); err != nil {
		t.Fatalf("not JSON: %v: %s", err, b)
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}

// str digs a string out of nested maps.
func str(m map[string]any, keys ...string) string {
	var cur any = m
	for _, k := range keys {
		mm, ok := cur.(map[string]any)
		if !ok {
			return ""
		}
		cur = mm[k]
	}
	s, _ := cur.(string)
	return s
}

// lastRequest returns the last request the server logged.
func lastRequest(t *testing.T, s *Server) Request {
	t.Helper()
	reqs := s.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request logged")
	}
	return reqs[len(reqs)-1]
}
