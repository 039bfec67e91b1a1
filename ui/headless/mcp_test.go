package headless

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

func runMCP(t *testing.T, run func(MCPOptions) int, o MCPOptions) (code int, stdout, stderr string) {
	t.Helper()
	lc := &procgroup.Lifecycle{}
	t.Cleanup(lc.Shutdown)
	o.Server = uitest.MCPConfig(t)
	o.Server.Lifecycle = lc
	var out, errb bytes.Buffer
	o.Stdout, o.Stderr = &out, &errb
	code = run(o)
	return code, out.String(), errb.String()
}

func TestMCPTools(t *testing.T) {
	code, out, errs := runMCP(t, RunMCPTools, MCPOptions{})
	if code != ExitOK || !strings.Contains(out, "echo\tEcho\n") || !strings.Contains(out, "signup\tSign up\n") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
}

func TestMCPCallPrintsText(t *testing.T) {
	code, out, errs := runMCP(t, RunMCPCall, MCPOptions{Tool: "echo", Args: json.RawMessage(`{"text":"hi","times":2}`)})
	if code != ExitOK || out != "hihi\n" {
		t.Errorf("exit %d, stdout %q, stderr %s", code, out, errs)
	}
}

func TestMCPCallToolError(t *testing.T) {
	code, out, errs := runMCP(t, RunMCPCall, MCPOptions{Tool: "fail"})
	if code != ExitFailed || out != "" || !strings.Contains(errs, "Fail reported an error: it broke") {
		t.Errorf("exit %d, stdout %q, stderr %s", code, out, errs)
	}
	code, _, errs = runMCP(t, RunMCPCall, MCPOptions{Tool: "nope"})
	if code != ExitFailed || !strings.Contains(errs, `offers no tool "nope"`) {
		t.Errorf("exit %d, stderr %s", code, errs)
	}
}

func TestMCPCallRichResult(t *testing.T) {
	code, out, errs := runMCP(t, RunMCPCall, MCPOptions{Tool: "rich"})
	if code != ExitOK || out != "some text\n" || !strings.Contains(errs, "an image (image/png") || !strings.Contains(errs, "The report <file:///tmp/report.txt>") {
		t.Errorf("exit %d, stdout %q, stderr %s", code, out, errs)
	}
}

// A form answered from --answers goes back typed; without answers and
// without a person it is declined, with the reason on stderr.
func TestMCPCallFormByRule(t *testing.T) {
	answers := map[string]json.RawMessage{"name": []byte(`"Ada"`), "age": []byte(`"41"`), "ratio": []byte(`0.5`), "agree": []byte(`true`), "tags": []byte(`["a","c"]`)}
	code, out, errs := runMCP(t, RunMCPCall, MCPOptions{Tool: "signup", Answers: answers})
	for _, want := range []string{`"action":"accept"`, `"age":41`, `"ratio":0.5`, `"agree":true`, `"color":"green"`, `"tags":["a","c"]`, `"name":"Ada"`} {
		if code != ExitOK || !strings.Contains(out, want) {
			t.Errorf("exit %d, stdout %s lacks %s; stderr %s", code, out, want, errs)
		}
	}
	if !strings.Contains(errs, "(--answers)") {
		t.Errorf("stderr does not say who answered: %s", errs)
	}
	code, out, errs = runMCP(t, RunMCPCall, MCPOptions{Tool: "signup"})
	if code != ExitOK || !strings.Contains(out, `"action":"decline"`) || !strings.Contains(errs, "--accept-defaults was not given") {
		t.Errorf("exit %d, stdout %s, stderr %s", code, out, errs)
	}
	code, out, errs = runMCP(t, RunMCPCall, MCPOptions{Tool: "signup", AcceptDefaults: true})
	if code != ExitOK || !strings.Contains(out, `"action":"decline"`) || !strings.Contains(errs, "name") {
		t.Errorf("a required field without default: exit %d, stdout %s, stderr %s", code, out, errs)
	}
}

// URLs are declined without --approve-urls; with it, one that is not
// high-risk goes to the browser, a high-risk one does not.
func TestMCPCallURLByRule(t *testing.T) {
	for _, tc := range []struct {
		approve bool
		url     string
		want    string
		opened  int
	}{
		{false, "", "url decline", 0},
		{true, "", "url accept", 1},
		{true, "https://xn--80ak6aa92e.com/login", "url decline", 0},
	} {
		rec := &uitest.Recorder{}
		args, _ := json.Marshal(map[string]string{"url": tc.url})
		code, out, errs := runMCP(t, RunMCPCall, MCPOptions{Tool: "open", Args: args, ApproveURLs: tc.approve, Opener: rec})
		if code != ExitOK || !strings.Contains(out, tc.want) || len(rec.Opened()) != tc.opened {
			t.Errorf("%+v: exit %d, stdout %q, opened %q, stderr %s", tc, code, out, rec.Opened(), errs)
		}
		if tc.opened == 1 && !strings.Contains(errs, "handed https://example.com/connect to the browser (--approve-urls)") {
			t.Errorf("stderr does not say what was done: %s", errs)
		}
		if tc.approve && tc.opened == 0 && !strings.Contains(errs, "opens no high-risk URL") {
			t.Errorf("stderr does not say why: %s", errs)
		}
	}
}

// The -32042 path: the prerequisite URL is opened, and with --auto-retry
// the call is made again once the flow is done (here the server never says
// so: the flow timeout stands in).
func TestMCPCallURLRequiredAutoRetry(t *testing.T) {
	rec := &uitest.Recorder{}
	code, out, errs := runMCP(t, RunMCPCall, MCPOptions{Tool: "needs-url", ApproveURLs: true, AutoRetry: true, Opener: rec, FlowTimeout: 100 * time.Millisecond})
	if code != ExitOK || out != "done after the prerequisite\n" || len(rec.Opened()) != 1 || rec.Opened()[0] != "https://example.com/authorize" {
		t.Errorf("exit %d, stdout %q, opened %q, stderr %s", code, out, rec.Opened(), errs)
	}
	code, _, errs = runMCP(t, RunMCPCall, MCPOptions{Tool: "needs-url", ApproveURLs: true, Opener: &uitest.Recorder{}, FlowTimeout: 100 * time.Millisecond})
	if code != ExitFailed || !strings.Contains(errs, "--auto-retry") {
		t.Errorf("without --auto-retry: exit %d, stderr %s", code, errs)
	}
}
