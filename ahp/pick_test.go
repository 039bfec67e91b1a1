package ahp

import (
	"errors"
	"testing"
)

// With no --session, the client takes the session waiting for input, or
// the only one; when several could be meant it asks (SessionsError).
func TestPickSession(t *testing.T) {
	idle := SessionSummary{Resource: "ahp-session:/a", Status: StatusIdle}
	waiting := SessionSummary{Resource: "ahp-session:/b", Status: StatusInputNeeded}
	waiting2 := SessionSummary{Resource: "ahp-session:/c", Status: StatusInputNeeded | StatusInProgress}
	for _, tc := range []struct {
		name string
		list []SessionSummary
		want string
	}{
		{"the one waiting", []SessionSummary{idle, waiting}, "ahp-session:/b"},
		{"the only one", []SessionSummary{idle}, "ahp-session:/a"},
		{"several waiting: ask", []SessionSummary{waiting, waiting2}, ""},
		{"none waiting, several: ask", []SessionSummary{idle, {Resource: "ahp-session:/d", Status: StatusInProgress}}, ""},
	} {
		s, err := pick(tc.list)
		var several *SessionsError
		if tc.want == "" {
			if !errors.As(err, &several) || len(several.Sessions) != len(tc.list) {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if err != nil || s.Resource != tc.want {
			t.Errorf("%s: %v %v", tc.name, s.Resource, err)
		}
	}
	if _, err := pick(nil); err == nil {
		t.Error("no session at all was not an error")
	}
}
