package cli

import (
	"slices"
	"testing"
)

func TestResumeAndAgentArguments(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		resume bool
		id     string
		argv   []string
	}{
		{[]string{"--", "agent", "-x"}, false, "", []string{"agent", "-x"}},
		{[]string{"agent", "-x"}, false, "", []string{"agent", "-x"}},
		{[]string{"--resume", "--", "npx", "--", "a"}, true, "", []string{"npx", "--", "a"}},
		{[]string{"--resume", "abc", "--", "agent"}, true, "abc", []string{"agent"}},
		{[]string{"--resume=abc", "--", "agent"}, true, "abc", []string{"agent"}},
		{[]string{"--resume", "abc"}, true, "abc", nil},
		{[]string{"--resume"}, true, "", nil},
		{[]string{"--mode", "plan", "--model", "opus", "--", "a"}, false, "", []string{"a"}},
	} {
		o, argv, err := parseFlags(tc.args)
		if err != nil || o.resume.set != tc.resume || o.resume.id != tc.id || !slices.Equal(argv, tc.argv) {
			t.Errorf("%q: resume %v %q argv %q err %v", tc.args, o.resume.set, o.resume.id, argv, err)
		}
	}
	if _, _, err := parseFlags([]string{"stray", "--", "agent"}); err == nil {
		t.Error("an argument before -- was accepted")
	}
}
