package line

import (
	"bufio"
	"io"
	"time"
)

// line is one line of input and when it was read.
type line struct {
	s  string
	at time.Time
}

// lineInput is the one reader of the input: prompts and answers both come
// from it. Lines are read as soon as they are typed and stamped, so that a
// question can tell lines typed before it appeared from its answers.
type lineInput struct {
	ch   chan line
	held *line // a line taken by since that was not typed ahead
	// stop, when closed, ends the question being asked as if input had
	// ended (another client answered it: inbox.go); lines stay queued.
	stop <-chan struct{}
}

// next returns the next line, waiting for it; false at end of input.
func (in *lineInput) next() (line, bool) {
	if h := in.held; h != nil {
		in.held = nil
		return *h, true
	}
	select {
	case l, ok := <-in.ch:
		return l, ok
	case <-in.stop:
		return line{}, false
	}
}

// stopped reports whether the question being asked was ended by stop.
func (in *lineInput) stopped() bool {
	select {
	case <-in.stop:
		return in.stop != nil
	default:
		return false
	}
}

func readLines(r io.Reader) *lineInput {
	in := &lineInput{ch: make(chan line, 4096)}
	go func() {
		defer close(in.ch)
		sr := &stampedReader{r: r}
		sc := bufio.NewScanner(sr)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			in.ch <- line{sc.Text(), sr.at}
		}
	}()
	return in
}

// stampedReader notes when each Read returned. The scanner reads again
// only once no whole line is left, so every line it returns was whole by
// the last Read: stamped with that time, lines typed together ahead of a
// question count as typed ahead however late this goroutine gets to them
// (on a busy machine it can stall between two lines of one read while the
// question appears).
type stampedReader struct {
	r  io.Reader
	at time.Time
}

func (s *stampedReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.at = time.Now()
	return n, err
}

// since discards the lines read before t (typed ahead of a question) and
// reports how many it dropped.
func (in *lineInput) since(t time.Time) (dropped int) {
	for {
		select {
		case l, ok := <-in.ch:
			if !ok {
				return dropped
			}
			if !l.at.Before(t) {
				// A fresh line: put it back in front. The channel is ours
				// alone, so re-queueing through a one-line holder is safe.
				in.held = &l
				return dropped
			}
			dropped++
		default:
			return dropped
		}
	}
}
