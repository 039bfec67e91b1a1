package ahp

import (
	"context"
	"fmt"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
)

// BenchmarkOutcomeToFiftyClients: one request answered, until each of 50
// clients (real sockets) has seen the completion. The goal is
// under a second; this measures it instead of asserting it in a test.
func BenchmarkOutcomeToFiftyClients(b *testing.B) {
	h := NewHost(HostOptions{})
	s, err := Listen(ServerOptions{Token: testToken}, h)
	if err != nil {
		b.Fatal(err)
	}
	go s.Serve()
	defer s.Close()
	var cs []*Client
	for i := 0; i < 50; i++ {
		c, err := Dial(context.Background(), ClientOptions{URL: s.URL(), Token: testToken})
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		cs = append(cs, c)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		id := fmt.Sprintf("r%d", i)
		h.Request(Request{ID: id, Questions: []Question{textQ("a", false)}})
		for _, c := range cs {
			for {
				ev, _ := c.Next(ctx)
				if ch, ok := ev.(Changed); ok {
					if r, ok := ch.Action.(InputRequested); ok && r.Request.ID == id {
						break
					}
				}
			}
		}
		cs[0].Dispatch(InputCompleted{RequestID: id, Response: question.Decline})
		for _, c := range cs {
			for {
				ev, _ := c.Next(ctx)
				if ch, ok := ev.(Changed); ok {
					if d, ok := ch.Action.(InputCompleted); ok && d.RequestID == id {
						break
					}
				}
			}
		}
	}
}
