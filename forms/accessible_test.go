package forms

import (
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/question"
)

func TestRunAccessible(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		input  string
		want   question.Outcome
		output []string // substrings the transcript must contain
	}{
		{"every kind", formSchema,
			// name (too short, then ok), age (1.5 refused, then 42), score empty,
			// agree y, colour 3 = green (1 is no answer), tags 1 and 3 then 0,
			// note empty, then 1 = send.
			"J\nJane\n1.5\n42\n\ny\n3\n1\n3\n0\n\n1\n",
			question.Outcome{Action: question.Accept, Content: map[string]any{"name": "Jane", "age": json.Number("42"), "agree": true, "color": "green", "tags": []string{"a", "c"}}},
			[]string{"Demo asks", "Please answer.", "Name (required):", "shorter than 2 characters", "not a whole number", "Your answers:", "Score: (no answer: left out)", `Tags: ["a","c"]`}},
		{"defaults kept with Enter", `{"type":"object","properties":{"name":{"type":"string","default":"John Doe"},"n":{"type":"integer","default":30}}}`,
			"\n\n1\n",
			question.Outcome{Action: question.Accept, Content: map[string]any{"name": "John Doe", "n": json.Number("30")}},
			[]string{"Press Enter to keep: John Doe"}},
		{"decline", formSchema, "Jane\n4\n\nn\n1\n0\n\n3\n", question.Outcome{Action: question.Decline}, nil},
		{"cancel choice", formSchema, "Jane\n4\n\nn\n1\n0\n\n4\n", question.Outcome{Action: question.Cancel}, nil},
		{"input ends early", formSchema, "Jane\n", question.Outcome{Action: question.Cancel}, nil},
		{"input ends at the last question", formSchema, "Jane\n4\n\nn\n1\n0\n\n", question.Outcome{Action: question.Cancel}, nil},
		{"go again then send", `{"type":"object","properties":{"a":{"type":"string"}}}`, "x\n2\ny\n1\n",
			question.Outcome{Action: question.Accept, Content: map[string]any{"a": "y"}}, nil},
		{"other shape", `{"type":"object","properties":{"q":{"type":"string","enum":["a","b"]},"q_custom":{"type":"string","title":"Own answer"}}}`,
			"4\n\nmine\n1\n", question.Outcome{Action: question.Accept, Content: map[string]any{"q_custom": "mine"}},
			[]string{"Other…", "write your answer", "Own answer:"}},
		{"secret warning", `{"type":"object","properties":{"password":{"type":"string"}}}`, "\n1\n",
			question.Outcome{Action: question.Accept, Content: map[string]any{}}, []string{"never type passwords"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			got, err := RunAccessible(mustParse(t, tt.src), Header{Agent: "Demo", Message: "Please answer."}, strings.NewReader(tt.input), &out)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(out.String(), "\x1b") {
				t.Errorf("accessible output carries escape codes: %q", out.String())
			}
			text := ansi.Strip(out.String())
			if got.Action != tt.want.Action || !reflect.DeepEqual(got.Content, tt.want.Content) {
				t.Fatalf("got %+v, want %+v\ntranscript:\n%s", got, tt.want, text)
			}
			for _, s := range tt.output {
				if !strings.Contains(text, s) {
					t.Errorf("transcript lacks %q:\n%s", s, text)
				}
			}
		})
	}
}

// TestRunAccessiblePipe feeds the answers through a pipe a line at a time,
// as a person at a terminal would.
func TestRunAccessiblePipe(t *testing.T) {
	r, w := io.Pipe()
	go func() {
		for _, l := range []string{"hello\n", "1\n"} {
			_, _ = w.Write([]byte(l))
		}
		_ = w.Close()
	}()
	got, err := RunAccessible(mustParse(t, `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`), Header{}, r, io.Discard)
	if err != nil || got.Action != question.Accept || got.Content["a"] != "hello" {
		t.Fatalf("got %+v, %v", got, err)
	}
}

func TestLineReader(t *testing.T) {
	lr := &lineReader{r: strings.NewReader("ab\ncd")}
	buf := make([]byte, 10)
	for _, want := range []string{"ab\n", "cd"} {
		n, err := lr.Read(buf)
		if err != nil || string(buf[:n]) != want {
			t.Fatalf("read %q, %v; want %q", buf[:n], err, want)
		}
	}
	if _, err := lr.Read(buf); err != io.EOF || lr.eof {
		t.Fatalf("end of a final unterminated line: err %v eof %v", err, lr.eof)
	}
	if _, err := lr.Read(buf); err != io.EOF || !lr.eof {
		t.Fatalf("prompt at end of input: err %v eof %v", err, lr.eof)
	}
}

// TestRunAccessibleLeavesTheRest checks that answers meant for a later form
// stay in the reader.
func TestRunAccessibleLeavesTheRest(t *testing.T) {
	s := mustParse(t, `{"type":"object","properties":{"a":{"type":"string"}}}`)
	in := strings.NewReader("one\n1\ntwo\n1\n")
	for _, want := range []string{"one", "two"} {
		got, err := RunAccessible(s, Header{}, in, io.Discard)
		if err != nil || got.Content["a"] != want {
			t.Fatalf("got %+v, %v; want %q", got, err, want)
		}
	}
}

// Input that ends at a select's prompt cancels the form (huh's accessible
// Select would index option -1 there).
func TestAccessibleEndOfInputAtSelect(t *testing.T) {
	s := mustParse(t, `{"type":"object","properties":{"c":{"type":"string","enum":["a","b"]}},"required":["c"]}`)
	var out strings.Builder
	got, err := RunAccessible(s, Header{Agent: "Demo"}, strings.NewReader(""), &out)
	if err != nil || got.Action != question.Cancel {
		t.Fatalf("got %+v, %v", got, err)
	}
}
