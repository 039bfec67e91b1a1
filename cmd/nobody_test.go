package cmd

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// auditLines reads an --audit file: one JSON object a line.
func auditLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e map[string]any
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("audit line %q: %v", sc.Text(), err)
		}
		out = append(out, e)
	}
	return out
}

// nobodyEnv keeps a run of the built binary away from the user's config
// and history.
func nobodyEnv(t *testing.T) []string {
	return []string{"XDG_CONFIG_HOME=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + t.TempDir()}
}

// TestNobodyThereCancelsPrompt: -p answers the forms and URLs nobody was
// shown with cancel, never decline (servers and agents read decline as a
// person's no, and act on it), and says why on stderr and in the audit
// file. Answers that do not fit the form cancel it too. The demo agent,
// a real process, reports what it received.
func TestNobodyThereCancelsPrompt(t *testing.T) {
	bin := elicitBinary(t)
	env := nobodyEnv(t)
	for _, tc := range []struct {
		name, prompt string
		answers      string // an --answers file's content, "" for none
		stdout       []string
		reason       string // on stderr and in each audit entry's note
		entries      int
	}{
		{"forms without answers", "/forms 2", "", []string{"Accepted 0 of 2 forms (declined 0, cancelled 2, errors 0)."},
			"no person to ask, and neither --answers nor --accept-defaults was given", 2},
		{"URLs", "/url", "", []string{"1. A flow that completes\n\nYou chose **cancel**", "2. A flow that never completes\n\nYou chose **cancel**"},
			"no person to consent to opening it", 2},
		{"answers that do not fit", "/form defaults", `{"age":200}`, []string{"You chose **cancel**"},
			`"age": above maximum 150`, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			auditFile := filepath.Join(t.TempDir(), "audit.jsonl")
			args := []string{"-p", tc.prompt, "--audit", auditFile, "--cwd", work}
			if tc.answers != "" {
				answers := filepath.Join(work, "a.json")
				if err := os.WriteFile(answers, []byte(tc.answers), 0o600); err != nil {
					t.Fatal(err)
				}
				args = append(args, "--answers", answers)
			}
			r := runBinary(t, env, "", append(args, "--", bin, demoAgentCommand)...)
			if r.code != 0 {
				t.Fatalf("exit %d: %v", r.code, r)
			}
			for _, want := range tc.stdout {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
				}
			}
			if strings.Contains(r.stdout, "**decline**") || strings.Contains(r.stderr, "declined") {
				t.Errorf("a question nobody saw was declined:\n%s\n%s", r.stdout, r.stderr)
			}
			if !strings.Contains(r.stderr, "elicit: cancelled ") || !strings.Contains(r.stderr, tc.reason) {
				t.Errorf("stderr does not say it cancelled, and why (%q):\n%s", tc.reason, r.stderr)
			}
			entries := auditLines(t, auditFile)
			if len(entries) != tc.entries {
				t.Fatalf("%d audit entries, want %d: %v", len(entries), tc.entries, entries)
			}
			for _, e := range entries {
				if e["outcome"] != "cancel" || e["answered_by"] != "auto" && e["answered_by"] != "answers-file" || !strings.Contains(e["note"].(string), tc.reason) {
					t.Errorf("audit entry %v: want outcome cancel with note %q", e, tc.reason)
				}
			}
		})
	}
}
