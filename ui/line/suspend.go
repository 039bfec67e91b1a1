package line

import (
	"fmt"
	"os"
	"sync/atomic"
	"time"
)

// Ctrl+Z in the accessible session: the terminal is in its normal line
// mode, so the kernel sends SIGTSTP to elicit's process group (the agent
// runs in a group of its own and goes on). elicit catches it to say so,
// stops itself as the shell expects, and on `fg` says where the user is:
// at the prompt, or in a question. While it is stopped, the agent's
// messages wait in the pipe; a question among them is announced on
// return.

// resumeWindow is how long after `fg` a question counts as one that
// arrived while elicit was suspended (it was waiting in the pipe).
const resumeWindow = 2 * time.Second

// suspender handles Ctrl+Z for one session.
type suspender struct {
	l    *lineSession
	stop func()           // stops the process until SIGCONT (stopSelf; tests fake it)
	now  func() time.Time // the clock of the window
	// resumed is when the last fg came (UnixNano; 0 before one); asking
	// says a question waits for its answer.
	resumed   atomic.Int64
	asking    atomic.Bool
	suspended atomic.Bool // from Ctrl+Z until the return is noted
}

// run answers each SIGTSTP on sig until done closes.
func (s *suspender) run(sig <-chan os.Signal, done <-chan struct{}) {
	for {
		select {
		case <-sig:
			s.suspend()
		case <-done:
			return
		}
	}
}

// suspend stops elicit until fg, then says where the user is.
func (s *suspender) suspend() {
	out := s.l.out
	out.EndLine()
	fmt.Fprintln(out, "Suspended; fg resumes elicit. The agent goes on meanwhile.")
	s.suspended.Store(true)
	s.stop()
	// After fg, what the agent sent meanwhile may be handled before this
	// goroutine runs again: suspended covers that moment.
	s.resumed.Store(s.now().UnixNano())
	s.suspended.Store(false)
	if s.asking.Load() {
		fmt.Fprintln(out, "Resumed. The question above still waits for your answer.")
		return
	}
	fmt.Fprint(out, "Resumed.\n> ")
}

// awayNote announces a question that arrived while elicit was suspended:
// a line before the question (no bell: the accessible session's output
// lets no control character through).
func (s *suspender) awayNote() string {
	at := s.resumed.Load()
	if !s.suspended.Load() && (at == 0 || s.now().Sub(time.Unix(0, at)) > resumeWindow) {
		return ""
	}
	return "\nWhile elicit was suspended, the agent asked this:"
}
