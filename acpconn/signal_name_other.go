//go:build !unix

package acpconn

import "syscall"

func signalName(s syscall.Signal) string { return s.String() }
