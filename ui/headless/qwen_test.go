package headless

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// qwen-code's questions, which come in a permission request, are a form
// to -p: --answers fills it and qwen reads the answers beside its Submit
// option; without --answers (or --approve, which grants tools, not
// answers) nobody chose, and the request is cancelled.
func TestHeadlessQwenQuestions(t *testing.T) {
	answers := map[string]json.RawMessage{"question_0": json.RawMessage(`"Blue"`), "question_1": json.RawMessage(`["Jam"]`), "question_1_custom": json.RawMessage(`"honey"`)}
	for _, tc := range []struct {
		name string
		o    Options
		want string
	}{
		{"answers", Options{Answers: answers}, `qwen got {"answers":{"0":"Blue","1":"Jam, honey"},"outcome":{"optionId":"proceed_once","outcome":"selected"}}`},
		{"none", Options{}, `qwen got {"outcome":{"outcome":"cancelled"}}`},
		{"approve", Options{Approve: true}, `qwen got {"outcome":{"outcome":"cancelled"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.o.Agent = uitest.ScriptConfig(t, "qwen-ask")
			code, stdout, stderr := runHeadless(t, tc.o)
			if code != ExitOK || !strings.Contains(stdout, tc.want) || !strings.Contains(stdout, "done.") {
				t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
			}
			if tc.name != "answers" && !strings.Contains(stderr, "neither --answers nor --accept-defaults") {
				t.Errorf("stderr does not say why: %s", stderr)
			}
		})
	}
}
