package line

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// qwen-code's questions, which come in a permission request, are a form
// in the accessible session: a select with its "Other" text, a
// multi-select with its own; the answers go back as qwen reads them, and
// a decline picks qwen's Cancel option.
func TestLinesQwenQuestions(t *testing.T) {
	form := []step{{"Connected to", "ask me"}, {"4. Other…", "4"}, {"Type your own answer instead", "green"},
		{"Confirm selection", "2"}, {"Confirm selection", "0"}, {"Type your own answer to add", "honey"}}
	for _, tc := range []struct {
		name, choice, want string
	}{
		{"send", "1", `qwen got {"answers":{"0":"green","1":"Jam, honey"},"outcome":{"optionId":"proceed_once","outcome":"selected"}}`},
		{"decline", "3", `qwen got {"outcome":{"optionId":"cancel","outcome":"selected"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, pw, done := startRun(t, Options{Agent: uitest.ScriptConfig(t, "qwen-ask")})
			answer(t, out, pw, append(form, step{"Send these answers", tc.choice}))
			out.WaitFor(t, "done.")
			pw.Close()
			if code, got := <-done, out.String(); code != 0 || !strings.Contains(got, tc.want) || !strings.Contains(got, "Which extras?") || !strings.Contains(got, "Jam · sweet") {
				t.Fatalf("exit %d, want %s:\n%s", code, tc.want, got)
			}
		})
	}
}
