package ahp

import (
	"net"

	"golang.org/x/sys/unix"
)

const peerCheckable = true

// peerUID reads LOCAL_PEERCRED (what getpeereid reads): the uid of the
// process on the other end, as it was at connect time.
func peerUID(c *net.UnixConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0, err
	}
	var cred *unix.Xucred
	var serr error
	if err := raw.Control(func(fd uintptr) { cred, serr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED) }); err != nil {
		return 0, err
	}
	if serr != nil {
		return 0, serr
	}
	return int(cred.Uid), nil
}
