//go:build !linux

package procgroup

import "time"

// Only Linux has a reaper of one's own (PR_SET_CHILD_SUBREAPER): elsewhere a
// process that leaves its group's session and loses its parent is
// reparented to init, out of reach (see the README's "Processes and
// terminals"). FreeBSD's procctl(PROC_REAP_ACQUIRE) could do it; it is not
// done.

func contain() {}

func (l *Lifecycle) endStrays(time.Duration, []int) {}

// KeepUserSessions does nothing where strays are not ended.
func (l *Lifecycle) KeepUserSessions() (stop func()) { return func() {} }
