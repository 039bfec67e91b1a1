package headless

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// Issue 34, item 4: a -32042 whose URL is not opened (no --approve-urls
// and no person: cancelled; --decline: declined) ends the call at once
// with exit 1 and the tool's error, not at --timeout (exit 124).
func TestMCPCallURLRequiredNotOpened(t *testing.T) {
	for _, tc := range []struct {
		name    string
		decline bool
		why     string
	}{
		{"nobody to consent", false, "no person to consent"},
		{"declined", true, "--decline"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &uitest.Recorder{}
			code, out, errs := runMCP(t, RunMCPCall, MCPOptions{Tool: "needs-url", Decline: tc.decline, Opener: rec, Timeout: testkit.Hang})
			if code != ExitFailed || out != "" || len(rec.Opened()) != 0 {
				t.Errorf("exit %d, stdout %q, opened %q, stderr %s", code, out, rec.Opened(), errs)
			}
			if !strings.Contains(errs, tc.why) || !strings.Contains(errs, "the call failed: URL elicitation required (-32042)") {
				t.Errorf("stderr does not say why, with the tool's error:\n%s", errs)
			}
		})
	}
}
