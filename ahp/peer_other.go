//go:build !linux && !darwin

package ahp

import "net"

const peerCheckable = false

func peerUID(*net.UnixConn) (int, error) { return 0, ErrNoPeerCheck }
