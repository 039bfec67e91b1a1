package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func TestFormCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	defaults := write("defaults.json", `{"type":"object","properties":{"name":{"type":"string","default":"John Doe"},"age":{"type":"integer","default":30},"note":{"type":"string"}}}`)
	required := write("required.json", `{"type":"object","properties":{"name":{"type":"string"},"n":{"type":"integer"}},"required":["name"]}`)
	params := write("params.json", `{"sessionId":"s1","mode":"form","message":"Hi","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean","default":true}}}}`)
	answers := write("answers.json", `{"name":"Ada","n":"7","unrelated":1}`)
	badAnswers := write("bad.json", `{"name":"Ada","n":1.5}`)
	tests := []struct {
		name      string
		args      []string
		stdin     string
		tty       bool
		code      int
		stdout    string
		stderrHas string
	}{
		{"no terminal, nothing given: cancelled", []string{defaults}, "", false, 1, `{"action":"cancel"}`, "cancelled: no person to ask, and neither --answers nor --accept-defaults was given"},
		{"defaults with --accept-defaults", []string{"--accept-defaults", defaults}, "", false, 0, `{"action":"accept","content":{"age":30,"name":"John Doe"}}`, ""},
		{"--accept-defaults asks no one on a terminal", []string{"--accept-defaults", defaults}, "", true, 0, `{"action":"accept","content":{"age":30,"name":"John Doe"}}`, ""},
		{"schema on stdin", []string{"--accept-defaults"}, `{"type":"object","properties":{"a":{"type":"boolean","default":false}}}`, false, 0, `{"action":"accept","content":{"a":false}}`, ""},
		{"dash is stdin", []string{"--accept-defaults", "-"}, `{"type":"object","properties":{}}`, false, 0, `{"action":"accept","content":{}}`, ""},
		{"params object", []string{"--accept-defaults", params}, "", false, 0, `{"action":"accept","content":{"ok":true}}`, ""},
		{"required without default cancels", []string{"--accept-defaults", required}, "", false, 1, `{"action":"cancel"}`, `cancelled: "name": required`},
		{"answers file", []string{"--answers", answers, required}, "", true, 0, `{"action":"accept","content":{"n":7,"name":"Ada"}}`, ""},
		{"bad answer cancels", []string{"--answers", badAnswers, required}, "", true, 1, `{"action":"cancel"}`, `"n": not a whole number`},
		{"refused schema", nil, `{"type":"object","properties":{"a":{"type":"object"}}}`, false, 2, "", `property "a": nested objects are not supported`},
		{"url mode refused", nil, `{"mode":"url","url":"https://example.com","elicitationId":"e"}`, false, 2, "", `mode "url"`},
		{"not json", nil, `nope`, false, 2, "", "not valid JSON"},
		{"missing file", []string{filepath.Join(dir, "none.json")}, "", false, 2, "", "no such file"},
		{"accessible accept", []string{"--accessible", required}, "Ada\n\n1\n", true, 0, `{"action":"accept","content":{"name":"Ada"}}`, "name (required):"},
		{"accessible decline", []string{"--accessible", required}, "Ada\n\n3\n", true, 1, `{"action":"decline"}`, ""},
		{"accessible cancel at end of input", []string{"--accessible", required}, "", true, 130, `{"action":"cancel"}`, ""},
		{"accessible needs a file", []string{"--accessible"}, `{"type":"object"}`, true, 2, "", "give the schema as a FILE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut strings.Builder
			o, args := formArgs(t, tt.args)
			code := runForm(o, args, strings.NewReader(tt.stdin), &out, &errOut, tt.tty)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tt.code, errOut.String())
			}
			if got := strings.TrimSpace(out.String()); got != tt.stdout {
				t.Errorf("stdout %s, want %s", got, tt.stdout)
			}
			if !strings.Contains(errOut.String(), tt.stderrHas) {
				t.Errorf("stderr lacks %q: %s", tt.stderrHas, errOut.String())
			}
		})
	}
}

// formArgs reads args with the flags of `elicit form`.
func formArgs(t *testing.T, args []string) (formOptions, []string) {
	t.Helper()
	var o formOptions
	cmd := &cobra.Command{}
	addFormFlags(cmd, &o)
	if err := cmd.Flags().Parse(args); err != nil {
		t.Fatal(err)
	}
	return o, cmd.Flags().Args()
}

// TestFormWithoutAPersonCancels: `elicit form` with no terminal asks no
// one, so it answers cancel and exits 1 with the reason on stderr; it no
// longer accepts the schema's defaults on its own. --accept-defaults and
// --answers are how a script says what to send.
func TestFormWithoutAPersonCancels(t *testing.T) {
	dir := t.TempDir()
	schemaFile := filepath.Join(dir, "schema.json")
	if err := os.WriteFile(schemaFile, []byte(`{"type":"object","properties":{"name":{"type":"string","default":"John Doe"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	env := nobodyEnv(t)
	r := runBinary(t, env, "", "form", schemaFile)
	if r.code != 1 || strings.TrimSpace(r.stdout) != `{"action":"cancel"}` || !strings.Contains(r.stderr, "no person to ask") {
		t.Errorf("no terminal: %v", r)
	}
	r = runBinary(t, env, `{"type":"object","properties":{"n":{"type":"integer","default":3}}}`, "form", "-")
	if r.code != 1 || strings.TrimSpace(r.stdout) != `{"action":"cancel"}` {
		t.Errorf("schema on stdin, no terminal: %v", r)
	}
	r = runBinary(t, env, "", "form", "--accept-defaults", schemaFile)
	if r.code != 0 || strings.TrimSpace(r.stdout) != `{"action":"accept","content":{"name":"John Doe"}}` {
		t.Errorf("--accept-defaults: %v", r)
	}
}
