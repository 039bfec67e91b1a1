package headless

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/audit"
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

// A form answered from --answers goes back typed. Without answers and
// without a person, or with answers that do not fit it, it is cancelled
// (never declined: the server would read that as a person's no), with the
// reason on stderr and in the audit file; only --decline declines.
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
	for _, tc := range []struct {
		name   string
		o      MCPOptions
		action string
		reason string
	}{
		{"nothing given", MCPOptions{}, "cancel", "no person to ask, and neither --answers nor --accept-defaults was given"},
		{"a required field without default", MCPOptions{AcceptDefaults: true}, "cancel", `"name": required`},
		{"answers that do not fit", MCPOptions{Answers: map[string]json.RawMessage{"name": []byte(`"Ada"`), "age": []byte(`"old"`)}}, "cancel", `"age"`},
		{"--decline", MCPOptions{Decline: true}, "decline", "--decline"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.o.Tool = "signup"
			log := auditTo(t, &tc.o)
			code, out, errs := runMCP(t, RunMCPCall, tc.o)
			if code != ExitOK || !strings.Contains(out, `"action":"`+tc.action+`"`) || !strings.Contains(errs, tc.reason) {
				t.Errorf("exit %d, stdout %s, stderr %s; want %s because %s", code, out, errs, tc.action, tc.reason)
			}
			if e := log(); len(e) != 1 || e[0]["outcome"] != tc.action || !strings.Contains(e[0]["note"].(string), tc.reason) {
				t.Errorf("audit %v: want one %s, noting %q", e, tc.action, tc.reason)
			}
		})
	}
}

// --quiet: no line for a form accepted (the audit log still has it), but
// a form the answers could not fill is still said, with the reason.
func TestMCPCallQuiet(t *testing.T) {
	answers := map[string]json.RawMessage{"name": []byte(`"Ada"`), "age": []byte(`41`)}
	o := MCPOptions{Tool: "signup", Answers: answers, Quiet: true}
	log := auditTo(t, &o)
	code, out, errs := runMCP(t, RunMCPCall, o)
	if code != ExitOK || !strings.Contains(out, `"action":"accept"`) || errs != "" {
		t.Errorf("exit %d, stdout %s, stderr %q: want an accepted form and nothing on stderr", code, out, errs)
	}
	if e := log(); len(e) != 1 || e[0]["outcome"] != "accept" {
		t.Errorf("audit %v: want the accepted form", e)
	}
	o = MCPOptions{Tool: "signup", Answers: map[string]json.RawMessage{"name": []byte(`"Ada"`), "age": []byte(`"old"`)}, Quiet: true}
	code, out, errs = runMCP(t, RunMCPCall, o)
	if code != ExitOK || !strings.Contains(out, `"action":"cancel"`) || !strings.Contains(errs, `cancelled form`) || !strings.Contains(errs, `"age"`) {
		t.Errorf("exit %d, stdout %s, stderr %q: want the cancel and its reason said", code, out, errs)
	}
}

// auditTo gives o an audit file and returns a reader of its entries.
func auditTo(t *testing.T, o *MCPOptions) func() []map[string]any {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	o.Memory.Audit = l
	return func() []map[string]any {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var out []map[string]any
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if line == "" {
				continue
			}
			var e map[string]any
			if err := json.Unmarshal([]byte(line), &e); err != nil {
				t.Fatalf("audit line %q: %v", line, err)
			}
			out = append(out, e)
		}
		return out
	}
}

// URLs are cancelled without --approve-urls (nobody consented, and nobody
// said no); with it, one that is not high-risk goes to the browser, a
// high-risk one does not, and is cancelled too. --decline declines.
func TestMCPCallURLByRule(t *testing.T) {
	for _, tc := range []struct {
		approve, decline bool
		url              string
		want             string
		opened           int
		reason           string
	}{
		{false, false, "", "url cancel", 0, "no person to consent to opening it"},
		{true, false, "", "url accept", 1, "--approve-urls"},
		{true, false, "https://xn--80ak6aa92e.com/login", "url cancel", 0, "opens no high-risk URL"},
		{false, true, "", "url decline", 0, "--decline"},
	} {
		rec := &uitest.Recorder{}
		args, _ := json.Marshal(map[string]string{"url": tc.url})
		o := MCPOptions{Tool: "open", Args: args, ApproveURLs: tc.approve, Decline: tc.decline, Opener: rec}
		log := auditTo(t, &o)
		code, out, errs := runMCP(t, RunMCPCall, o)
		if code != ExitOK || !strings.Contains(out, tc.want) || len(rec.Opened()) != tc.opened {
			t.Errorf("%+v: exit %d, stdout %q, opened %q, stderr %s", tc, code, out, rec.Opened(), errs)
		}
		if tc.opened == 1 && !strings.Contains(errs, "handed https://example.com/connect to the browser (--approve-urls)") {
			t.Errorf("stderr does not say what was done: %s", errs)
		}
		if !strings.Contains(errs, tc.reason) {
			t.Errorf("%+v: stderr does not say why: %s", tc, errs)
		}
		if e := log(); len(e) != 1 || !strings.Contains(e[0]["note"].(string), tc.reason) {
			t.Errorf("%+v: audit %v lacks the reason", tc, e)
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
