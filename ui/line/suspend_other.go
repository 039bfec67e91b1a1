//go:build !unix

package line

import "time"

// catchSuspend does nothing where there is no job control.
func (l *lineSession) catchSuspend() func() {
	l.susp = &suspender{l: l, stop: func() {}, now: time.Now}
	return func() {}
}
