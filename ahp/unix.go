package ahp

import (
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
)

// The Unix socket transport of the inbox: the same WebSocket handler, on
// a socket only the user can reach. No token is needed there: the socket
// lives in a directory of mode 0700 (the caller's to make and check), is
// made with mode 0600, and every connection's peer is checked to be the
// user (the kernel's word: SO_PEERCRED on Linux, LOCAL_PEERCRED, which
// getpeereid reads, on macOS). On a system where the peer cannot be
// checked, ListenUnix refuses (ErrNoPeerCheck).

// ErrNoPeerCheck says the system cannot tell who is on the other end of a
// Unix socket, so no same-user socket is served.
var ErrNoPeerCheck = errors.New("this system cannot check a Unix socket's peer: the inbox is off here")

// ListenUnix listens on a new Unix socket at path (mode 0600) and returns
// a listener that hands out only connections whose peer is this process's
// user; others are closed as they come (PeerRefused counts them). Serve
// it with an http.Server whose handler is NewHandler(h,
// HandlerOptions{SameUser: true}). Close removes the socket.
//
// The socket is made under another name and renamed to path once it
// listens: whoever finds path can connect, so a connection refused there
// means its listener is gone (the inbox removes such a socket as a
// crashed session's), never that it has not begun listening yet.
func ListenUnix(path string) (*UnixListener, error) {
	if !peerCheckable {
		return nil, ErrNoPeerCheck
	}
	tmp := path + ".new"
	ln, err := net.Listen("unix", tmp)
	if err != nil {
		return nil, err
	}
	ul := ln.(*net.UnixListener)
	ul.SetUnlinkOnClose(false) // Close removes path itself
	// The directory is the user's alone (0700), so nobody can reach the
	// socket between bind and chmod; 0600 is the second wall.
	if err := os.Chmod(tmp, 0o600); err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		ln.Close()
		os.Remove(tmp)
		return nil, err
	}
	return &UnixListener{UnixListener: ul, uid: os.Getuid(), path: path}, nil
}

// UnixListener is a Unix socket listener that checks each peer's uid.
type UnixListener struct {
	*net.UnixListener
	uid     int
	path    string
	mu      sync.Mutex
	refused int
}

// Accept waits for the next connection of the user's own; connections
// of other users are closed unread.
func (l *UnixListener) Accept() (net.Conn, error) {
	for {
		c, err := l.AcceptUnix()
		if err != nil {
			return nil, err
		}
		uid, err := peerUID(c)
		if err == nil && uid == l.uid {
			return c, nil
		}
		c.Close()
		l.mu.Lock()
		l.refused++
		l.mu.Unlock()
	}
}

// Close stops listening and removes the socket.
func (l *UnixListener) Close() error {
	err := l.UnixListener.Close()
	os.Remove(l.path)
	return err
}

// PeerRefused is how many connections of another user were refused.
func (l *UnixListener) PeerRefused() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.refused
}

// PeerUID is the uid of the process on the other end of c, as the kernel
// says.
func PeerUID(c *net.UnixConn) (int, error) {
	if !peerCheckable {
		return 0, ErrNoPeerCheck
	}
	uid, err := peerUID(c)
	if err != nil {
		return 0, fmt.Errorf("the socket's peer: %w", err)
	}
	return uid, nil
}
