package inbox

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"syscall"

	"github.com/elicit-dev/elicit/internal/unixhttp"
)

// refused reports a dial to a socket nobody listens on.
func refused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }

// Count is how many questions wait, across every source, as cheaply as
// it can be had: one HTTP request to each session's socket (no AHP
// session, no state), and an AHP connection to each remote host. Sources
// that cannot be read are left out of the sum and returned.
func Count(ctx context.Context, o Options) (int, []Problem) {
	srcs, err := o.Sources()
	var problems []Problem
	if err != nil {
		problems = append(problems, Problem{Source: Source{Key: "inbox", URL: "the inbox directory"}, Err: err})
	}
	var mu sync.Mutex
	total := 0
	var wg sync.WaitGroup
	for _, s := range srcs {
		wg.Go(func() {
			n, err := countOf(ctx, s, o.clientID())
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				stale(s, err)
				if s.Socket == "" || !refused(err) {
					problems = append(problems, Problem{Source: s, Err: err})
				}
				return
			}
			total += n
		})
	}
	wg.Wait()
	return total, problems
}

func countOf(ctx context.Context, s Source, id string) (int, error) {
	if s.Socket == "" {
		c, err := dial(ctx, s, id)
		if err != nil {
			return 0, err
		}
		in := c.Inputs()
		c.Close()
		return len(in.OpenRequests()), nil
	}
	var r countReply
	err := get(ctx, s.Socket, countPath, 4096, &r)
	return r.Open, err
}

// get asks the session at socket for path and reads the JSON reply (at
// most limit bytes) into v.
func get(ctx context.Context, socket, path string, limit int64, v any) error {
	err := unixhttp.Call(ctx, socket, http.MethodGet, path, limit, v)
	if se, ok := err.(*unixhttp.StatusError); ok {
		return fmt.Errorf("the session %s", se)
	}
	return err
}
