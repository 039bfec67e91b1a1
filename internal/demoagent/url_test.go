package demoagent

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

type sentURL struct {
	SessionId     acp.SessionId `json:"sessionId"`
	Mode          string        `json:"mode"`
	ElicitationId string        `json:"elicitationId"`
	Url           string        `json:"url"`
	Message       string        `json:"message"`
}

// fetch GETs or POSTs u and returns the status and body.
func fetch(t *testing.T, method, u string, form url.Values) (int, string) {
	t.Helper()
	var resp *http.Response
	var err error
	if method == http.MethodPost {
		resp, err = http.PostForm(u, form)
	} else {
		resp, err = http.Get(u)
	}
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

var (
	formAction = regexp.MustCompile(`<form method="post" action="([^"]+)">`)
	hiddenID   = regexp.MustCompile(`name="id" value="([^"]+)"`)
)

// approveThroughPage loads a flow's page and submits its Approve form as a browser would.
func approveThroughPage(t *testing.T, page string) string {
	t.Helper()
	status, body := fetch(t, http.MethodGet, page, nil)
	if status != http.StatusOK || !strings.Contains(body, "Approve") {
		t.Fatalf("page %s: %d %s", page, status, body)
	}
	action, id := formAction.FindStringSubmatch(body), hiddenID.FindStringSubmatch(body)
	if action == nil || id == nil {
		t.Fatalf("page has no approve form: %s", body)
	}
	base, _ := url.Parse(page)
	target, err := base.Parse(action[1])
	if err != nil {
		t.Fatal(err)
	}
	status, body = fetch(t, http.MethodPost, target.String(), url.Values{"id": {id[1]}})
	if status != http.StatusOK {
		t.Fatalf("approve: %d %s", status, body)
	}
	return body
}

func TestURLRoundTrip(t *testing.T) {
	c := startAgent(t, bothModes, Options{})
	c.setInstant()
	c.mustPrompt("/url", acp.StopReasonEndTurn)
	_, elicitations, _ := c.snapshot()
	if len(elicitations) != 2 {
		t.Fatalf("got %d elicitations, want 2", len(elicitations))
	}
	var flows [2]sentURL
	for i, raw := range elicitations {
		if err := json.Unmarshal(raw, &flows[i]); err != nil {
			t.Fatal(err)
		}
		f := flows[i]
		if f.Mode != "url" || f.SessionId != c.sid || f.ElicitationId == "" || f.Message == "" ||
			!strings.HasPrefix(f.Url, "http://127.0.0.1:") {
			t.Errorf("flow %d = %+v", i, f)
		}
	}
	if flows[0].ElicitationId == flows[1].ElicitationId {
		t.Error("both flows share one elicitationId")
	}
	if !strings.Contains(c.messageText(), "You chose **accept**") {
		t.Errorf("reply does not report the consent:\n%s", c.messageText())
	}

	// The second flow never completes: approving it first must send nothing, so the first
	// completion that arrives is the first flow's.
	if body := approveThroughPage(t, flows[1].Url); !strings.Contains(body, "never completes") {
		t.Errorf("second flow page after approve: %s", body)
	}
	approveThroughPage(t, flows[0].Url)
	select {
	case id := <-c.completes:
		if id != flows[0].ElicitationId {
			t.Errorf("elicitation/complete for %q, want %q", id, flows[0].ElicitationId)
		}
	case <-time.After(waitLimit):
		t.Fatal("no elicitation/complete after approve")
	}
	// A second approve of the same flow sends nothing more and says so.
	if body := approveThroughPage(t, flows[0].Url); !strings.Contains(body, "approved already") {
		t.Errorf("repeated approve: %s", body)
	}
}

func TestURLDeclinedAndWithoutCapability(t *testing.T) {
	c := startAgent(t, bothModes, Options{})
	c.setInstant()
	c.onElicit = answerAction(actionDecline)
	c.mustPrompt("/url", acp.StopReasonEndTurn)
	_, elicitations, _ := c.snapshot()
	var f sentURL
	if err := json.Unmarshal(elicitations[0], &f); err != nil {
		t.Fatal(err)
	}
	if status, _ := fetch(t, http.MethodGet, f.Url, nil); status != http.StatusNotFound {
		t.Errorf("declined flow's page: status %d, want 404", status)
	}

	c2 := startAgent(t, clientCaps{form: true}, Options{})
	c2.setInstant()
	c2.mustPrompt("/url", acp.StopReasonEndTurn)
	if _, el, _ := c2.snapshot(); len(el) != 0 {
		t.Errorf("sent %d URL requests to a client without url mode", len(el))
	}
	if !strings.Contains(c2.messageText(), "did not declare `elicitation.url`") {
		t.Errorf("reply = %s", c2.messageText())
	}
}

func TestURLServerApprove(t *testing.T) {
	var mu sync.Mutex
	var completed []string
	fail := false
	s, err := startURLServer(func(id string) error {
		mu.Lock()
		defer mu.Unlock()
		if fail {
			return errors.New("pipe closed")
		}
		completed = append(completed, id)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	done, _ := s.newFlow("done", true)
	never, _ := s.newFlow("never", false)
	broken, _ := s.newFlow("broken", true)

	tests := []struct {
		name    string
		id      string
		fail    bool
		wantErr error
		wantMsg string
	}{
		{"completes", done, false, nil, "Approved"},
		{"again", done, false, nil, "approved already"},
		{"never completes", never, false, nil, "never completes"},
		{"unknown", "elicit-nope", false, errUnknownFlow, ""},
		{"client gone", broken, true, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mu.Lock()
			fail = tt.fail
			mu.Unlock()
			msg, err := s.approve(tt.id)
			switch {
			case tt.fail:
				if err == nil {
					t.Error("no error when the completion could not be sent")
				}
			case !errors.Is(err, tt.wantErr):
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			case !strings.Contains(msg, tt.wantMsg):
				t.Errorf("msg = %q, want %q", msg, tt.wantMsg)
			}
		})
	}
	mu.Lock()
	defer mu.Unlock()
	if len(completed) != 1 || completed[0] != done {
		t.Errorf("completed = %v, want [%s]", completed, done)
	}
}

func TestURLServerRoutes(t *testing.T) {
	s, err := startURLServer(func(string) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	id, page := s.newFlow(`<script>alert(1)</script>`, true)
	tests := []struct {
		name, method, url string
		want              int
	}{
		{"page", http.MethodGet, page, http.StatusOK},
		{"unknown page", http.MethodGet, s.base + "/flow/elicit-nope", http.StatusNotFound},
		{"approve by GET", http.MethodGet, s.base + "/approve?id=" + id, http.StatusOK},
		{"approve unknown", http.MethodGet, s.base + "/approve?id=x", http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := fetch(t, tt.method, tt.url, nil)
			if status != tt.want {
				t.Errorf("status %d, want %d", status, tt.want)
			}
			if strings.Contains(body, "<script>") {
				t.Error("the page does not escape the message")
			}
		})
	}
	req, _ := http.NewRequest(http.MethodDelete, s.base+"/approve?id="+id, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("DELETE /approve: %d", resp.StatusCode)
	}
}
