package urlconsent

import (
	"context"
	"io"
	"testing"

	"github.com/elicit-dev/elicit/urlconsent/urlcheck"
)

type openLog struct{ urls []string }

func (r *openLog) Open(u string) error { r.urls = append(r.urls, u); return nil }

// TestRunOpensOnlyOnConsent drives Run with scripted keys: → Enter opens
// once (Open is the first button), d declines and opens nothing.
func TestRunOpensOnlyOnConsent(t *testing.T) {
	for _, tc := range []struct {
		keys  string
		want  Action
		opens int
	}{
		{"\x1b[C\r", Open, 1},
		{"d", Decline, 0},
	} {
		rec := &openLog{}
		pr, pw := io.Pipe()
		go func() { pw.Write([]byte(tc.keys)) }()
		a, err := Run(context.Background(), urlcheck.Analyze("https://example.com/x"), Header{Agent: "t"}, RunOptions{In: pr, Out: io.Discard, Opener: rec})
		pw.Close()
		if err != nil || a != tc.want || len(rec.urls) != tc.opens {
			t.Errorf("keys %q: %v %v, opened %q", tc.keys, a, err, rec.urls)
		}
	}
}
