package config

import (
	"strings"
	"testing"
)

func TestInboxKey(t *testing.T) {
	off := false
	for _, tt := range []struct {
		name, file string
		on         bool
		hosts      int
		err        string
	}{
		{"absent", "", true, 0, ""},
		{"off", "inbox = false\n", false, 0, ""},
		{"table", "[inbox]\nattach = [\"ws://127.0.0.1:1/\", { url = \"wss://b/\", token_env = \"B_TOKEN\" }]\n", true, 2, ""},
		{"table off", "[inbox]\nenabled = false\n", false, 0, ""},
		{"unknown key", "[inbox]\nattach_to = []\n", true, 0, `unknown key "inbox.attach_to"`},
		{"bad host", "[inbox]\nattach = [{ url = \"ws://x/\", token = \"secret\" }]\n", true, 0, `unknown key "token"`},
		{"bad value", "inbox = \"no\"\n", true, 0, "inbox is false, or an [inbox] table"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(tt.file), "config.toml")
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Settings(Overrides{}).Inbox; got != tt.on {
				t.Errorf("inbox on: %v", got)
			}
			if len(c.Inbox.Attach) != tt.hosts {
				t.Errorf("hosts %+v", c.Inbox.Attach)
			}
			if c.Settings(Overrides{Inbox: &off}).Inbox {
				t.Error("--no-inbox did not win")
			}
		})
	}
}
