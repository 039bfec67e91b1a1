package forms

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/elicit-dev/elicit/internal/testkit"
)

// TestGoldenViews compares views, with escape codes stripped and trailing
// spaces trimmed, against testdata/forms/golden (go test -update rewrites).
func TestGoldenViews(t *testing.T) {
	header := Header{Agent: "Claude \x1b[31mCode", ToolCall: "Edit main.go", Index: 1, Total: 3,
		Message: "I need a few details before I change the build. This message is long enough to wrap over more than one line of the form."}
	tests := []struct {
		name          string
		schema        string
		width, height int
		keys          []string
	}{
		{"start", formSchema, 70, 0, nil},
		{"integer-error", formSchema, 70, 0, []string{"Jane", "<enter>", "1.5", "<enter>"}},
		{"select-focused", formSchema, 70, 0, []string{"Jane", "<enter>", "4", "<enter>", "<enter>", "<enter>"}},
		{"review", formSchema, 70, 0, []string{"Jane", "<enter>", "4", "<enter>", "<enter>", "<enter>", "<down>", "<enter>", "<space>", "<enter>", "hi", "<enter>"}},
		{"submit-errors", formSchema, 70, 0, []string{"J", "<enter>", "<enter>", "<enter>", "<enter>", "<enter>", "<enter>", "<enter>"}},
		{"esc-confirm", formSchema, 70, 0, []string{"Jo", "<esc>"}},
		{"scrolled", formSchema, 60, 14, []string{"Jane", "<enter>", "4", "<enter>", "<enter>", "<enter>", "<enter>", "<enter>"}},
		{"secret-notes-hints", `{"type":"object","properties":{
			"api_key":{"type":"string","title":"API key","description":"From your dashboard"},
			"limit":{"type":"integer","minimum":1,"maximum":100,"default":200},
			"when":{"type":"string","format":"date"},
			"strong":{"type":"string","pattern":"^(?=.*[A-Z]).{8,}$"}}}`, 70, 0, nil},
		{"other-revealed", `{"type":"object","properties":{
			"question_0":{"type":"string","title":"Which library?","oneOf":[{"const":"date-fns","title":"date-fns","description":"Small, modular"},{"const":"dayjs","title":"dayjs"}]},
			"question_0_custom":{"type":"string","title":"Your answer"}}}`, 70, 0, []string{"<up>", "<enter>", "lux"}},
		{"long-list", `{"type":"object","properties":{"region":{"type":"string","title":"Region","enum":["af-south-1","ap-east-1","ap-northeast-1","ap-south-1","ca-central-1","eu-central-1","eu-north-1","eu-west-1","sa-east-1","us-east-1","us-west-2"]}},"required":["region"]}`, 70, 0, []string{"<down>"}},
		{"big-list", bigSelect(300, `,"pick_custom":{"type":"string"}`, ""), 70, 0, []string{"<pgdown>", "<down>", "/", "opt-1", "<down>"}},
		{"big-multiselect", bigMulti(300, `,"maxItems":3`), 60, 20, []string{"<space>", "<end>", "<space>", "<up>"}},
		{"multiselect", `{"type":"object","properties":{"toppings":{"type":"array","title":"Toppings","items":{"anyOf":[{"const":"ch","title":"Cheese"},{"const":"ol","title":"Olives"},{"const":"pi","title":"Pineapple"}]},"minItems":1,"maxItems":2,"default":["ch"]}},"required":["toppings"]}`, 70, 0, []string{"<down>", "<space>"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newTestModel(t, tt.schema)
			m.SetHeader(header)
			m.SetSize(tt.width, tt.height)
			press(m, tt.keys...)
			view := ansi.Strip(m.View())
			lines := strings.Split(view, "\n")
			for i := range lines {
				lines[i] = strings.TrimRight(lines[i], " ")
				if w := ansi.StringWidth(lines[i]); w > tt.width {
					t.Errorf("line %d is %d wide, over %d: %q", i, w, tt.width, lines[i])
				}
			}
			if tt.height > 0 && len(lines) > tt.height {
				t.Errorf("%d lines, over height %d", len(lines), tt.height)
			}
			got := strings.Join(lines, "\n") + "\n"
			testkit.Golden(t, filepath.Join("..", "testdata", "forms", "golden", tt.name+".txt"), []byte(got))
		})
	}
}
