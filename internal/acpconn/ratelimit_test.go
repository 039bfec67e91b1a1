package acpconn

import (
	"fmt"
	"strings"
	"testing"
)

// TestRateLimitUnlessDisabled: the demo agent's /forms asks more forms
// than RateLimit at once; the extra ones are declined unless NoRateLimit.
func TestRateLimitUnlessDisabled(t *testing.T) {
	const n = RateLimit + 5
	tests := []struct {
		name        string
		noRateLimit bool
		accepted    int
	}{
		{"limited", false, RateLimit},
		{"unlimited", true, n},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := start(t, "demo", Config{NoRateLimit: tt.noRateLimit})
			c.StartPrompt(fmt.Sprintf("/forms %d", n))
			var evs []Event
			for {
				ev := next(t, c)
				evs = append(evs, ev)
				if req, ok := ev.(ElicitationRequest); ok {
					c.RespondElicitation(req.ID, "accept", map[string]any{})
				}
				if end, ok := ev.(TurnEnded); ok {
					if end.Err != nil {
						t.Fatal(end.Err)
					}
					break
				}
			}
			want := fmt.Sprintf("Accepted %d of %d forms", tt.accepted, n)
			if got := agentText(evs); !strings.Contains(got, want) {
				t.Errorf("agent said %q, want %q", got, want)
			}
		})
	}
}
